// The one translation unit that compiles stb_image and stb_image_write (Debian's libstb-dev
// headers). Warnings are off for it in CMake: the code is not ours to fix.
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace vkspd_cli {
// The largest single allocation stb may make while it decodes (setStbAllocationLimit), and whether
// it asked for more since the limit was set.
thread_local size_t gStbAllocationLimit = SIZE_MAX;
thread_local bool gStbAllocationRefused = false;
}  // namespace vkspd_cli

namespace {
// stb_image's allocations: cleared (see STBI_MALLOC below), and none over the thread's limit.
void* stbAllocate(size_t bytes) {
    if (bytes > vkspd_cli::gStbAllocationLimit) {
        vkspd_cli::gStbAllocationRefused = true;
        return nullptr;
    }
    return std::calloc(1, bytes);
}
void* stbReallocate(void* pointer, size_t bytes) {
    if (bytes > vkspd_cli::gStbAllocationLimit) {
        vkspd_cli::gStbAllocationRefused = true;
        return nullptr;
    }
    return std::realloc(pointer, bytes);
}

// Debian 12's stb_image copies zero bytes to a null pointer where a PNG's first IDAT chunk is
// empty (stbi__getn into its not yet allocated IDAT buffer): memcpy(NULL, p, 0) is undefined
// behaviour, which UBSan reports, though nothing is read or written. In this translation unit
// only, stb's memcpy calls skip empty copies (tests/fuzz/corpus/png_empty_first_idat.png).
inline void* stbMemcpy(void* destination, const void* source, size_t bytes) {
    return bytes ? std::memcpy(destination, source, bytes) : destination;
}
}  // namespace
#define memcpy(destination, source, bytes) stbMemcpy(destination, source, bytes)

#define STB_IMAGE_IMPLEMENTATION
#define STBI_FAILURE_USERMSG
// stb_image mallocs its decoders' state (a JPEG's Huffman and quantization tables, its component
// buffers) without clearing it, and a hostile file can make it read what it never wrote: a scan
// with a Huffman table no segment defined indexed that table's 256 symbols with heap contents,
// millions of entries off (UBSan in the fuzz test; image_load.cpp now refuses such
// files). Cleared allocations make whatever is left of that class read zeros, the same on every
// run, instead of earlier data. The limit: stb grows a PNG's inflated data as long as the zlib
// stream goes on, so a 1 MB PNG of a 1x1 image took 1 GB (up to its 4 GB cap for larger files);
// image_load.cpp sets a limit from the image's size for each decode.
#define STBI_MALLOC(bytes) stbAllocate(bytes)
#define STBI_REALLOC(pointer, bytes) stbReallocate(pointer, bytes)
#define STBI_FREE(pointer) std::free(pointer)
// Only the formats the CLI documents (README: PNG, JPEG, TGA, BMP, PSD, GIF, Radiance HDR). The
// PNM reader overflowed a signed int on a header number of ten digits (undefined behaviour found
// by the fuzz test: tests/fuzz/corpus/pnm_header_number_overflow.ppm), and Softimage PIC was
// never offered; both now fail as unsupported formats.
#define STBI_NO_PNM
#define STBI_NO_PIC
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#undef memcpy

namespace vkspd_cli {

// stb_image keeps the reason of its last failure in a global it never clears; a decoder that
// fails without setting one would otherwise report an older, unrelated reason.
void clearStbFailureReason() { stbi__g_failure_reason = nullptr; }

// Limits each allocation stb makes on this thread to `bytes` (SIZE_MAX: none) and clears the
// refused flag; returns whether an allocation was refused since the last call.
bool setStbAllocationLimit(size_t bytes) {
    const bool refused = gStbAllocationRefused;
    gStbAllocationLimit = bytes;
    gStbAllocationRefused = false;
    return refused;
}

}  // namespace vkspd_cli
