#include "image_load.hpp"

#include <stb/stb_image.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iterator>
#include <memory>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vkspd_cli {

void clearStbFailureReason();               // stb_impl.cpp
bool setStbAllocationLimit(size_t bytes);   // stb_impl.cpp

namespace {

// The file as stb_image callbacks, which tell a truncated file from a complete one: stb's own
// memory reader returns zeros past the end, so most of its decoders accept a file cut short.
struct Reader {
    const uint8_t* data;
    size_t size;
    size_t position = 0;
    bool wantedMore = false;  // The decoder asked for bytes after the last one.

    stbi_io_callbacks callbacks() {
        stbi_io_callbacks c;
        c.read = [](void* user, char* out, int n) -> int {
            auto* r = static_cast<Reader*>(user);
            const size_t left = r->size - r->position;
            if (n > 0 && left == 0) r->wantedMore = true;
            const size_t take = n < 0 ? 0 : std::min(left, size_t(n));
            std::memcpy(out, r->data + r->position, take);
            r->position += take;
            return int(take);
        };
        c.skip = [](void* user, int n) {
            auto* r = static_cast<Reader*>(user);
            if (n < 0) {
                r->position -= std::min(r->position, size_t(-int64_t(n)));
            } else if (size_t(n) > r->size - r->position) {
                r->wantedMore = true;
                r->position = r->size;
            } else {
                r->position += size_t(n);
            }
        };
        c.eof = [](void* user) -> int {
            auto* r = static_cast<Reader*>(user);
            return r->position >= r->size;
        };
        return c;
    }
    // Starts again from the first byte (every stb call reads the file from its start).
    stbi_io_callbacks restart() {
        position = 0;
        wantedMore = false;
        return callbacks();
    }
};

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};

struct StbFree {
    void operator()(void* p) const { stbi_image_free(p); }
};

// Where a JPEG's segments start (after SOI), or 0 if the file is not one. stb, like the JPEG
// standard, allows fill bytes (0xFF) before a marker, so "FF FF D8" is a JPEG too.
size_t jpegStart(const uint8_t* d, size_t n) {
    size_t p = 0;
    if (n < 2 || d[0] != 0xFF) return 0;
    while (p < n && d[p] == 0xFF) ++p;
    return p < n && d[p] == 0xD8 ? p + 1 : 0;
}

// The image type from the first bytes, for messages ("corrupt PNG" reads better than stb's
// generic text); empty when not recognised.
std::string typeOf(const uint8_t* d, size_t n) {
    auto starts = [&](const char* magic, size_t len) { return n >= len && std::memcmp(d, magic, len) == 0; };
    if (starts("\x89PNG\r\n\x1a\n", 8)) return "PNG";
    if (jpegStart(d, n)) return "JPEG";
    if (starts("BM", 2)) return "BMP";
    if (starts("GIF8", 4)) return "GIF";
    if (starts("8BPS", 4)) return "PSD";
    if (starts("#?RADIANCE", 10) || starts("#?RGBE", 6)) return "Radiance HDR";
    return "";
}

// stb's reason for its last failure, unless it is one its format detection leaves behind
// ("Not a PNG" after a JPEG failed, say), which would mislead.
std::string stbReason() {
    const char* why = stbi_failure_reason();
    if (!why || !*why || std::strncmp(why, "Not a ", 6) == 0 || std::strstr(why, "not of any known type")) return "";
    return why;
}

// At most this many scans may name one JPEG component. Each scan makes stb_image decode every block
// of its components again (from zeros, where the scan has no data), so a 2 KB progressive JPEG of
// 200 empty scans over 4096x2048 took 0.6 s to load (5.6 s under the fuzz test's sanitizers) and
// a larger file would take minutes. Encoders write far fewer: libjpeg's progression has 6 scans
// for luma and 4 for each chroma component; the standard allows more only by splitting a
// component's coefficients and their bits into ever smaller scans. At this limit, four components
// of 2048x1024 in 16 empty scans each load in 0.07 s (0.9 s under the sanitizers).
constexpr int kMaxJpegScansPerComponent = 16;

// Fill bytes (0xFF) a JPEG may have before its start marker (FF D8): the marker then lies in
// stb_image's first 128-byte read (checkJpegSegments). Encoders write none.
constexpr size_t kMaxJpegFillBytes = 126;

// Walks a JPEG's segments as stb_image (Debian 12, 2022-09-08) will read them and refuses, before
// stb sees them, a file that would make it read or write out of bounds or work without bound:
// - a Huffman table whose 16 code counts add up to more than 256 symbols: stb builds it without
//   checking, past its 257-entry arrays (found by tests/fuzz);
// - a scan that decodes with a Huffman table no DHT before it defined, or a component whose
//   quantization table no DQT defined before its first scan (libjpeg refuses both too): stb
//   mallocs its decoder state without clearing it, so such a table is whatever the heap held, and
//   a Huffman decode indexed its 256 symbols with it, millions of entries off (UBSan in the fuzz
//   test; which input failed depended on the inputs before it);
// - a component named in more than kMaxJpegScansPerComponent scans;
// - a start marker (SOI) after more than kMaxJpegFillBytes fill bytes: stb reads through our
//   callbacks in 128-byte buffers and, after testing the file's type, goes back only to the start
//   of its current buffer, so past the first one it decoded the second buffer's bytes and then
//   stale ones as the file (a Huffman table of 0xFF counts: out of bounds, found by tests/fuzz).
// Entropy-coded data is skipped up to the next marker, as stb's decoder stops there; bytes past
// the end read as 0, as stb reads them. Anything else stb refuses on its own (a second frame
// header, a table number over 3, a scan before the frame header) is left to it. Returns false
// with `reason` set.
bool checkJpegSegments(const uint8_t* d, size_t n, std::string* reason) {
    auto at = [&](size_t i) -> unsigned { return i < n ? d[i] : 0u; };
    int scans[256] = {};         // scans naming each component ID
    int quantOf[256];            // each component's quantization table (-1: not in the frame)
    std::fill(std::begin(quantOf), std::end(quantOf), -1);
    unsigned quantDefined = 0;   // bit t: DQT table t
    unsigned huffDefined = 0;    // bit t: DHT DC table t; bit 4 + t: AC table t
    bool frame = false, progressive = false;
    int scanNumber = 0;
    size_t p = jpegStart(d, n);
    if (p - 2 > kMaxJpegFillBytes) {  // p: just past the marker's D8
        *reason = "unsupported JPEG: " + std::to_string(p - 2) + " fill bytes before its start marker (at most " +
                  std::to_string(kMaxJpegFillBytes) + ")";
        return false;
    }
    while (p + 4 <= n) {
        if (d[p] != 0xFF) {
            ++p;  // entropy-coded data (or garbage stb will refuse): look for the next marker
            continue;
        }
        const uint8_t marker = d[p + 1];
        if (marker == 0xFF || marker == 0x00 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01) {
            p += marker == 0xFF ? 1 : 2;  // fill byte, stuffed zero, restart marker, TEM
            continue;
        }
        if (marker == 0xD9) break;  // EOI
        const size_t length = size_t(d[p + 2]) << 8 | d[p + 3];
        if (length < 2) break;  // stb refuses it
        if (marker == 0xDB) {
            // As stb reads it: tables of 64 8-bit or 16-bit entries while the length lasts.
            long left = long(length) - 2;
            for (size_t t = p + 4; left > 0;) {
                const unsigned precision = at(t) >> 4, table = at(t) & 15u;
                if (precision > 1 || table > 3) break;  // stb refuses it
                quantDefined |= 1u << table;
                const size_t bytes = precision ? 129 : 65;
                left -= long(bytes);
                t += bytes;
            }
        }
        if (marker == 0xC4) {
            // As stb reads it: tables while the declared length is not used up, even when the
            // last one runs past the segment; counts past the end of the file read as 0.
            long left = long(length) - 2;
            for (size_t t = p + 4; left > 0;) {
                const unsigned tableClass = at(t) >> 4, table = at(t) & 15u;
                if (tableClass > 1 || table > 3) break;  // stb refuses it
                size_t symbols = 0;
                for (size_t i = 0; i < 16; ++i) symbols += at(t + 1 + i);
                if (symbols > 256) {
                    *reason = "corrupt JPEG: a Huffman table of " + std::to_string(symbols) + " symbols (at most 256)";
                    return false;
                }
                huffDefined |= 1u << (4 * tableClass + table);
                left -= long(17 + symbols);
                t += 17 + symbols;
            }
        }
        if ((marker == 0xC0 || marker == 0xC1 || marker == 0xC2) && !frame) {
            // The frame header stb decodes: its components' IDs and quantization tables (a scan
            // naming an ID twice in the frame takes its first component, as stb's lookup does).
            frame = true;
            progressive = marker == 0xC2;
            for (size_t i = 0, count = at(p + 9); i < count && i < 4; ++i) {
                int& quant = quantOf[at(p + 10 + 3 * i)];
                if (quant < 0) quant = int(at(p + 12 + 3 * i));
            }
        }
        if (marker == 0xDA && frame) {
            // Start of scan: its component count, (ID, DC and AC table) for each component, then
            // the spectral selection start and the successive approximation bits. stb decodes a
            // baseline scan with both tables, a progressive DC scan's first pass with the DC
            // table (its refinements read bits), an AC scan with the AC table.
            ++scanNumber;
            const size_t count = at(p + 4);
            const unsigned spectralStart = at(p + 5 + 2 * count), high = at(p + 7 + 2 * count) >> 4;
            const bool usesDc = !progressive || (spectralStart == 0 && high == 0);
            const bool usesAc = !progressive || spectralStart > 0;
            for (size_t i = 0; i < count && i < 4; ++i) {
                const unsigned id = at(p + 5 + 2 * i), dc = at(p + 6 + 2 * i) >> 4, ac = at(p + 6 + 2 * i) & 15u;
                if (quantOf[id] < 0 || quantOf[id] > 3 || dc > 3 || ac > 3) continue;  // stb refuses it
                if (scans[id] == 0 && !(quantDefined >> quantOf[id] & 1u)) {
                    *reason = "corrupt JPEG: component " + std::to_string(id) + " uses quantization table " +
                              std::to_string(quantOf[id]) + ", which no DQT before its first scan defines";
                    return false;
                }
                const bool missingDc = usesDc && !(huffDefined >> dc & 1u);
                if (missingDc || (usesAc && !(huffDefined >> (4 + ac) & 1u))) {
                    *reason = "corrupt JPEG: scan " + std::to_string(scanNumber) + " uses Huffman table " +
                              (missingDc ? "DC " + std::to_string(dc) : "AC " + std::to_string(ac)) +
                              ", which no DHT before it defines";
                    return false;
                }
                if (++scans[id] > kMaxJpegScansPerComponent) {
                    *reason = "unsupported JPEG: component " + std::to_string(id) + " is in more than " +
                              std::to_string(kMaxJpegScansPerComponent) +
                              " scans (each scan decodes all of its blocks again)";
                    return false;
                }
            }
        }
        p += 2 + length;
    }
    return true;
}

// stb_image allocates a PNG's IDAT buffer from each chunk's declared length before reading it, so
// an 83-byte file declaring a 788 MB IDAT made it allocate (and, under AddressSanitizer, fill)
// that much before failing (found by tests/fuzz as a timeout). Any chunk before IEND whose data
// runs past the end of the file is refused here as truncated: stb skips an unknown chunk by its
// length, and a length of 2^31 or more is negative to it, so it dropped the rest of its read
// buffer without moving in the stream and read the bytes after that buffer as chunks of their
// own, one an IDAT declaring 2 GB (a 156-byte file; fuzz out-of-memory). No valid PNG has a chunk
// past its end. Returns false with `reason` set.
bool checkPngChunks(const uint8_t* d, size_t n, std::string* reason) {
    size_t p = 8;  // after the signature
    while (p + 8 <= n) {
        const uint32_t length = uint32_t(d[p]) << 24 | uint32_t(d[p + 1]) << 16 | uint32_t(d[p + 2]) << 8 | d[p + 3];
        if (std::memcmp(d + p + 4, "IEND", 4) == 0) break;
        if (length > n - p - 8) {
            std::string type;
            for (int i = 4; i < 8; ++i) {
                const char c = char(d[p + i]);
                type += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? c : '?';
            }
            *reason = "truncated PNG: a chunk ('" + type + "') declares " + std::to_string(length) + " bytes, " +
                      std::to_string(n - p - 8) + " are left in the file";
            return false;
        }
        p += 12 + size_t(length);
    }
    return true;
}

// The size in a PNG's header, checked before stb_image reads it: stb refuses a header whose width x
// height x channels is over 2^30 as "too large" (or "corrupt" where the image has a palette),
// which named no size (a 100000x100000 PNG). Here the size is named with the rule it breaks: the
// device's maxImageDimension2D, or stb's limit. A header stb will refuse for another reason, or
// one that is not there, is left to it. Returns false with `reason` set.
bool checkPngHeaderSize(const uint8_t* d, size_t n, const LoadLimits& limits, std::string* reason) {
    if (n < 8 + 8 + 13 || std::memcmp(d + 12, "IHDR", 4) != 0) return true;
    auto be32 = [&](size_t i) { return uint32_t(d[i]) << 24 | uint32_t(d[i + 1]) << 16 | uint32_t(d[i + 2]) << 8 | d[i + 3]; };
    const uint32_t w = be32(16), h = be32(20);
    const unsigned colour = d[25];
    if (w == 0 || h == 0) return true;  // stb refuses it ("0-pixel image")
    const std::string size = std::to_string(w) + "x" + std::to_string(h);
    if (w > limits.maxDimension || h > limits.maxDimension) {
        *reason = size + " exceeds this device's maxImageDimension2D (" + std::to_string(limits.maxDimension) + ")";
        return false;
    }
    // stb's test, channels as it counts them: a palette image as four.
    const unsigned channels = colour == 0 ? 1 : colour == 2 ? 3 : colour == 3 ? 4 : colour == 4 ? 2 : colour == 6 ? 4 : 0;
    if (channels && uint64_t(w) * h * channels > (uint64_t(1) << 30)) {
        *reason = size + " with " + std::to_string(channels) + " channels exceeds the PNG decoder's (stb_image) " +
                  "limit of 2^30 samples (width x height x channels)";
        return false;
    }
    return true;
}

// Debian 12's stb_image (2022-09-08) decodes a Radiance scanline's run-length data without refusing
// a run of length 0 (later versions do): such a run never advances, and past the end of the file
// stb reads zeros, which are runs of length 0 too, so a 73-byte file, or any run-length HDR cut
// short inside a scanline, made it loop forever (found by tests/fuzz as a timeout). This walks the
// scanlines of a `width` x `height` file as stb will and refuses those before stb sees them;
// anything else stb refuses or decodes on its own (flat data, a bad scanline header or length, a
// run past the end of the scanline) is left to it. Returns false with `reason` set.
bool checkRadianceRuns(const uint8_t* d, size_t n, int width, int height, std::string* reason) {
    // stb decodes widths outside [8, 32768) as flat RGBE: four bytes a texel, no runs.
    if (width < 8 || width >= 32768) return true;
    size_t p = 0;
    auto skipLine = [&] {  // as stb's header tokens: the bytes up to a newline
        const size_t start = p;
        while (p < n && d[p] != '\n') ++p;
        const size_t length = p - start;
        if (p < n) ++p;
        return length;
    };
    skipLine();  // #?RADIANCE
    // The header ends, as in stb, at a line that reads as an empty C string: one that is empty or
    // starts with a zero byte (a line of zeros ended stb's header but not this walk's, so the walk
    // took the resolution line for a header line and a looping file for a flat one; the fuzzer found it).
    while (p < n) {
        const size_t start = p;
        if (skipLine() == 0 || d[start] == 0) break;
    }
    skipLine();  // -Y height +X width
    for (int y = 0; y < height; ++y) {
        if (n - std::min(n, p) < 4) return true;  // stb reads zeros: a flat scanline, then fails
        if (d[p] != 2 || d[p + 1] != 2 || (d[p + 2] & 0x80)) return true;  // stb decodes the rest flat
        if ((int(d[p + 2]) << 8 | d[p + 3]) != width) return true;         // stb refuses the length
        p += 4;
        for (int channel = 0; channel < 4; ++channel) {
            for (int x = 0; x < width;) {
                const std::string where = "scanline " + std::to_string(y + 1) + " of " + std::to_string(height);
                if (p >= n) {
                    *reason = "truncated Radiance HDR: the run-length data ends in " + where;
                    return false;
                }
                int count = d[p++];
                const bool run = count > 128;
                if (run) count -= 128;
                if (count == 0) {
                    *reason = "corrupt Radiance HDR: a run of length 0 in " + where;
                    return false;
                }
                if (count > width - x) return true;  // stb refuses it
                p += run ? 1 : size_t(count);
                x += count;
            }
        }
    }
    return true;
}

}  // namespace

namespace {

const char* const kNotAnImage = "not an image of a supported type (PNG, JPEG, TGA, BMP, PSD, GIF, HDR)";
const char* const kTooLarge = "file too large for the image decoder (over 2 GiB)";

// The most a file may hold: stb_image takes its length as an int.
constexpr size_t kMaxFileBytes = size_t(INT_MAX);

// The most stb_image decodes: it computes its buffers' sizes in int.
constexpr uint64_t kMaxDecoderBytes = uint64_t(INT_MAX);

// Enough of a file for typeOf() and for stb_image's TGA header test (18 bytes).
constexpr size_t kSignatureBytes = 64;

// Whether a file starting with these bytes can be an image loadImage accepts: one of typeOf()'s
// signatures, or else a TGA header (TGA has no signature; stb_image tries it last, from its header
// alone).
bool startsLikeImage(const uint8_t* d, size_t n) {
    if (!typeOf(d, n).empty()) return true;
    int w = 0, h = 0, comp = 0;
    return stbi_info_from_memory(d, int(n), &w, &h, &comp) != 0;
}

enum class ReadResult { Ok, Error, NotAnImage, TooLarge, Stopped };

// Reads `path` ("-": standard input) whole; with `checkSignature`, its first kSignatureBytes are
// checked (startsLikeImage) before the rest is read. A pipe or terminal is waited on with poll()
// in steps of 100 ms, asking `stop` (when given) in between. On ReadResult::Error, `error` is the
// errno.
ReadResult readAll(const std::string& path, std::vector<uint8_t>* bytes, bool checkSignature, bool (*stop)(),
                   int* error) {
    bytes->clear();
    int fd = STDIN_FILENO;
    if (path != "-") {
        fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            *error = errno;
            return ReadResult::Error;
        }
    }
    struct Closer {
        int fd;
        ~Closer() {
            if (fd != STDIN_FILENO) close(fd);
        }
    } closer{fd};
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *error = errno;
        return ReadResult::Error;
    }
    if (S_ISDIR(st.st_mode)) {
        *error = EISDIR;
        return ReadResult::Error;
    }
    const bool regular = S_ISREG(st.st_mode);
    if (regular && uint64_t(st.st_size) > kMaxFileBytes) return ReadResult::TooLarge;
    bool checked = !checkSignature;
    uint8_t chunk[1 << 16];
    for (;;) {
        // Up to the signature's end first, then in chunks.
        const size_t want = checked ? sizeof chunk : kSignatureBytes - bytes->size();
        if (!regular) {
            pollfd p = {fd, POLLIN, 0};
            const int ready = poll(&p, 1, 100);
            if (stop && stop()) return ReadResult::Stopped;
            if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
        }
        const ssize_t got = read(fd, chunk, want);
        if (got < 0) {
            if (errno == EINTR) {
                if (stop && stop()) return ReadResult::Stopped;
                continue;
            }
            *error = errno;
            return ReadResult::Error;
        }
        bytes->insert(bytes->end(), chunk, chunk + got);
        if (bytes->size() > kMaxFileBytes) return ReadResult::TooLarge;
        if (!checked && (got == 0 || bytes->size() >= kSignatureBytes)) {
            if (!bytes->empty() && !startsLikeImage(bytes->data(), bytes->size())) return ReadResult::NotAnImage;
            checked = true;
        }
        if (got == 0) return ReadResult::Ok;
    }
}

}  // namespace

bool readFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason) {
    int error = 0;
    switch (readAll(path, bytes, false, nullptr, &error)) {
    case ReadResult::Ok: return true;
    case ReadResult::TooLarge: *reason = kTooLarge; return false;
    default: *reason = std::strerror(error); return false;
    }
}

bool readImageFile(const std::string& path, std::vector<uint8_t>* bytes, std::string* reason, bool (*stop)()) {
    int error = 0;
    switch (readAll(path, bytes, true, stop, &error)) {
    case ReadResult::Ok: return true;
    case ReadResult::NotAnImage: *reason = kNotAnImage; break;
    case ReadResult::TooLarge: *reason = kTooLarge; break;
    case ReadResult::Stopped: *reason = "interrupted"; break;
    case ReadResult::Error: *reason = std::string("cannot read: ") + std::strerror(error); break;
    }
    bytes->clear();
    return false;
}

bool loadImage(const uint8_t* data, size_t size, const LoadLimits& limits, LoadedImage* image,
               std::string* reason) {
    *image = LoadedImage{};
    if (size == 0) {
        *reason = "empty file";
        return false;
    }
    if (size > kMaxFileBytes) {
        *reason = kTooLarge;
        return false;
    }
    const std::string type = typeOf(data, size);
    const std::string what = type.empty() ? "image" : type;
    if (type == "JPEG" && !checkJpegSegments(data, size, reason)) return false;
    if (type == "PNG" && !checkPngChunks(data, size, reason)) return false;
    if (type == "PNG" && !checkPngHeaderSize(data, size, limits, reason)) return false;
    Reader reader{data, size};
    stbi_io_callbacks io = reader.restart();
    int w = 0, h = 0, comp = 0;
    clearStbFailureReason();
    if (!stbi_info_from_callbacks(&io, &reader, &w, &h, &comp)) {
        const std::string why = stbReason();
        if (type.empty())
            *reason = kNotAnImage;
        else
            *reason = "corrupt or unsupported " + what + " header" + (why.empty() ? "" : " (" + why + ")");
        return false;
    }
    if (w <= 0 || h <= 0) {
        *reason = what + " of zero size (" + std::to_string(w) + "x" + std::to_string(h) + ")";
        return false;
    }
    if (uint32_t(w) > limits.maxDimension || uint32_t(h) > limits.maxDimension) {
        *reason = std::to_string(w) + "x" + std::to_string(h) + " exceeds this device's maxImageDimension2D (" +
                  std::to_string(limits.maxDimension) + ")";
        return false;
    }
    if (type == "Radiance HDR" && !checkRadianceRuns(data, size, w, h, reason)) return false;
    io = reader.restart();
    const bool hdr = stbi_is_hdr_from_callbacks(&io, &reader) != 0;
    io = reader.restart();
    const bool wide = !hdr && stbi_is_16_bit_from_callbacks(&io, &reader) != 0;
    const SampleType sampleType = hdr ? SampleType::F32 : wide ? SampleType::U16 : SampleType::U8;
    const uint64_t texels = uint64_t(w) * uint64_t(h);
    const uint64_t decodedBytes = texels * 4 * (bitsOf(sampleType) / 8);
    if (decodedBytes > limits.maxDecodedBytes) {
        *reason = std::to_string(w) + "x" + std::to_string(h) + " needs " + std::to_string(decodedBytes >> 20) +
                  " MiB decoded, over the limit of " + std::to_string(limits.maxDecodedBytes >> 20) + " MiB";
        return false;
    }
    if (limits.accept && !limits.accept(uint32_t(w), uint32_t(h), sampleType, reason)) {
        return false;
    }
    // stb_image computes the size of its output, and of a PNG's inflated rows (the decoded image
    // and a filter byte a row, at most), in int, so it cannot decode 2 GiB or more: a valid
    // 16384x16384 16-bit RGBA PNG failed as if corrupt. Refused here with the rule instead.
    const uint64_t decoderBytes = decodedBytes + (type == "PNG" ? uint64_t(h) : 0);
    if (decoderBytes > kMaxDecoderBytes) {
        *reason = std::to_string(w) + "x" + std::to_string(h) + " " + std::to_string(bitsOf(sampleType)) + "-bit " +
                  (sampleType == SampleType::F32 ? "float " : "") + "RGBA is " +
                  std::to_string((decodedBytes + (1u << 19)) >> 20) + " MiB decoded; the image decoder (stb_image) " +
                  "decodes at most 2 GiB - 1 byte (" + std::to_string(kMaxDecoderBytes) + " bytes)";
        return false;
    }

    int dw = 0, dh = 0, dcomp = 0;
    std::unique_ptr<void, StbFree> pixels;  // freed on every early return
    io = reader.restart();
    clearStbFailureReason();
    // No allocation of the decoder's may exceed twice the decoded image and 1 MiB: its largest for
    // a valid file (the output, a PNG's inflated rows, a progressive JPEG's coefficients of one
    // component) is at most the decoded image and a row, but stb grows a PNG's inflated data as long
    // as the zlib stream goes on (a 1 MB PNG of a 1x1 image took 1 GB; up to 4 GB for larger files).
    const uint64_t allocationLimit = 2 * decodedBytes + (1u << 20);
    setStbAllocationLimit(size_t(std::min<uint64_t>(allocationLimit, SIZE_MAX)));
    switch (sampleType) {
    case SampleType::U8: pixels.reset(stbi_load_from_callbacks(&io, &reader, &dw, &dh, &dcomp, 4)); break;
    case SampleType::U16: pixels.reset(stbi_load_16_from_callbacks(&io, &reader, &dw, &dh, &dcomp, 4)); break;
    case SampleType::F32: pixels.reset(stbi_loadf_from_callbacks(&io, &reader, &dw, &dh, &dcomp, 4)); break;
    }
    if (setStbAllocationLimit(SIZE_MAX)) {
        pixels.reset();
        *reason = "corrupt " + what + ": " +
                  (type == "PNG" ? "its compressed data inflates past the " : "decoding it takes more memory than a ") +
                  std::to_string(w) + "x" + std::to_string(h) + " image (over " +
                  std::to_string(allocationLimit >> 20) + " MiB)";
        return false;
    }
    if (!pixels) {
        const std::string why = stbReason();
        *reason = (reader.wantedMore ? "truncated " : "cannot decode ") + what +
                  (why.empty() ? std::string(reader.wantedMore ? "" : ": corrupt data") : " (" + why + ")");
        return false;
    }
    if (reader.wantedMore) {
        *reason = "truncated " + what + ": the data ends before the image does";
        return false;
    }
    // The decoder parses the header again; refuse anything that disagrees with what was checked.
    if (dw != w || dh != h) {
        *reason = "corrupt " + what + ": the header says " + std::to_string(w) + "x" + std::to_string(h) +
                  ", the decoder found " + std::to_string(dw) + "x" + std::to_string(dh);
        return false;
    }
    image->width = uint32_t(w);
    image->height = uint32_t(h);
    image->fileChannels = uint32_t(comp >= 1 && comp <= 4 ? comp : dcomp);
    image->type = sampleType;
    image->pixels = std::unique_ptr<void, void (*)(void*)>(pixels.release(), stbi_image_free);
    return true;
}

}  // namespace vkspd_cli
