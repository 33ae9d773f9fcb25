#version 460
#define EXP_NO_L1_STORES 1
#include "plain_exp.glsl"
