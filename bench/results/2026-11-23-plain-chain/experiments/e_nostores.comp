#version 460
#define EXP_NO_STORES 1
#include "plain_exp.glsl"
