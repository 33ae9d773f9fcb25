#version 460
#define EXP_NO_PREFETCH 1
#include "plain_exp.glsl"
