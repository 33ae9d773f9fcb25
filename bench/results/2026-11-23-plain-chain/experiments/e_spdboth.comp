#version 460
#define EXP_SPD_LOAD 1
#define EXP_SPD_STORE 1
#include "plain_exp.glsl"
