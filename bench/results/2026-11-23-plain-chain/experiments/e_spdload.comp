#version 460
#define EXP_SPD_LOAD 1
#include "plain_exp.glsl"
