// volk's implementation (Debian ships it as a source file next to volk.h), compiled once here.
#include <volk.c>
