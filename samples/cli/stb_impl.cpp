// The one translation unit that compiles stb_image and stb_image_write (Debian's libstb-dev
// headers). Warnings are off for it in CMake: the code is not ours to fix.
#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace vkspd_cli {

// stb_image keeps the reason of its last failure in a global it never clears; a decoder that
// fails without setting one would otherwise report an older, unrelated reason.
void clearStbFailureReason() { stbi__g_failure_reason = nullptr; }

}  // namespace vkspd_cli
