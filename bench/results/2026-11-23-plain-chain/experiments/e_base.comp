#version 460
#include "plain_exp.glsl"
