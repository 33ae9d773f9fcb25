// The one translation unit that compiles stb_image and stb_image_write (Debian's libstb-dev
// headers). Warnings are off for it in CMake: the code is not ours to fix.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
