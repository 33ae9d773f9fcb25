// The CPU reference mip chain of docs/FILTER.md (every reduction), in double precision.
//
// Each level is computed from the level above, separably: a horizontal pass over each source row
// the destination needs, then a vertical pass combining two or three of those filtered rows. Both
// passes use integer weights (per axis they sum to 2 for an even axis, s for an odd one, 1 for a
// size-1 axis) and each destination value is divided once by the product of the two sums. That is
// the formula of docs/FILTER.md with its division moved to the end: for values with few significant bits (a
// solid colour such as 0.25) every step is exact, so a solid image stays bit-identically solid.
//
// Work is split by destination rows over std::threads; each thread owns a scratch buffer of three
// filtered rows, allocated before the threads start, so no allocation happens per row or texel.
#include "vkspd/reference.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <system_error>
#include <thread>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace vkspd {

namespace {

// The taps of one destination texel along one axis: `count` consecutive source texels from
// `first`. count 1 is a copy (weight 1), count 2 is the even case (weights 1, 1), count 3 is the
// odd case (weights d - i, d, i + 1).
struct Taps {
    uint32_t first = 0;
    uint32_t count = 0;
    double weight[3] = {0.0, 0.0, 0.0};
};

// The filter of one axis: a Taps per destination texel, and the sum of each texel's weights.
struct AxisFilter {
    std::vector<Taps> taps;
    double weightSum = 1.0;
};

AxisFilter makeAxisFilter(uint32_t s) {
    AxisFilter f;
    const uint32_t d = std::max(1u, s / 2);
    f.taps.resize(d);
    if (s == 1) {
        f.taps[0] = Taps{0, 1, {1.0, 0.0, 0.0}};
        f.weightSum = 1.0;
    } else if (s % 2 == 0) {
        for (uint32_t i = 0; i < d; ++i) f.taps[i] = Taps{2 * i, 2, {1.0, 1.0, 0.0}};
        f.weightSum = 2.0;
    } else {
        // d = (s - 1) / 2; destination i covers source [i*s/d, (i+1)*s/d) scaled by d/s.
        for (uint32_t i = 0; i < d; ++i) {
            f.taps[i] = Taps{2 * i, 3, {double(d - i), double(d), double(i + 1)}};
        }
        f.weightSum = double(s);
    }
    return f;
}

// Horizontal pass over one row: dst[i] = sum of weight * src over the taps of i, per channel,
// without the division. `C` is the channel count when known at compile time, 0 otherwise.
template <uint32_t C>
void filterRow(const double* src, double* dst, const AxisFilter& f, uint32_t runtimeChannels) {
    const size_t c = C ? C : runtimeChannels;
    const size_t n = f.taps.size();
    for (size_t i = 0; i < n; ++i) {
        const Taps& t = f.taps[i];
        const double* s = src + size_t(t.first) * c;
        double* d = dst + i * c;
        if (t.count == 2) {
            for (size_t k = 0; k < c; ++k) d[k] = s[k] + s[c + k];
        } else if (t.count == 3) {
            const double w0 = t.weight[0], w1 = t.weight[1], w2 = t.weight[2];
            for (size_t k = 0; k < c; ++k) d[k] = w0 * s[k] + w1 * s[c + k] + w2 * s[2 * c + k];
        } else {
            for (size_t k = 0; k < c; ++k) d[k] = s[k];
        }
    }
}

void filterRowAnyChannels(const double* src, double* dst, const AxisFilter& f, uint32_t channels) {
    switch (channels) {
        case 1: filterRow<1>(src, dst, f, channels); break;
        case 2: filterRow<2>(src, dst, f, channels); break;
        case 3: filterRow<3>(src, dst, f, channels); break;
        case 4: filterRow<4>(src, dst, f, channels); break;
        default: filterRow<0>(src, dst, f, channels); break;
    }
}

// Computes destination rows [rowBegin, rowEnd) of `dst` from `src`. `scratch` holds three
// horizontally filtered rows (3 * dst.width * channels doubles).
void filterRows(const ReferenceLevel& src, ReferenceLevel& dst, const AxisFilter& fx,
                const AxisFilter& fy, uint32_t rowBegin, uint32_t rowEnd, double* scratch) {
    const uint32_t c = src.channels;
    const size_t srcRow = size_t(src.width) * c;
    const size_t dstRow = size_t(dst.width) * c;
    const double divisor = fx.weightSum * fy.weightSum;

    // Three slots of filtered rows; `slotRow` remembers which source row each holds, so the row
    // shared by consecutive destination rows of an odd axis (2i+2 of row i, 2(i+1) of row i+1) is
    // filtered once.
    double* slot[3] = {scratch, scratch + dstRow, scratch + 2 * dstRow};
    int64_t slotRow[3] = {-1, -1, -1};

    for (uint32_t y = rowBegin; y < rowEnd; ++y) {
        const Taps& t = fy.taps[y];
        // Reuse the last row of the previous destination row as this one's first.
        if (slotRow[2] == int64_t(t.first)) {
            std::swap(slot[0], slot[2]);
            std::swap(slotRow[0], slotRow[2]);
        }
        for (uint32_t k = 0; k < t.count; ++k) {
            const int64_t row = int64_t(t.first) + k;
            if (slotRow[k] != row) {
                filterRowAnyChannels(src.texels.data() + size_t(row) * srcRow, slot[k], fx, c);
                slotRow[k] = row;
            }
        }

        double* out = dst.texels.data() + size_t(y) * dstRow;
        const double* a = slot[0];
        const double* b = slot[1];
        const double* e = slot[2];
        if (t.count == 2) {
            for (size_t i = 0; i < dstRow; ++i) out[i] = (a[i] + b[i]) / divisor;
        } else if (t.count == 3) {
            const double w0 = t.weight[0], w1 = t.weight[1], w2 = t.weight[2];
            for (size_t i = 0; i < dstRow; ++i) out[i] = (w0 * a[i] + w1 * b[i] + w2 * e[i]) / divisor;
        } else {
            for (size_t i = 0; i < dstRow; ++i) out[i] = a[i] / divisor;
        }
    }
}

// Runs fn(begin, end, band) over [0, count) split into at most `threads` contiguous bands, band 0
// on the calling thread. A band whose thread cannot be started runs on the calling thread.
template <typename Fn>
void parallelFor(uint32_t count, unsigned threads, const Fn& fn) {
    const unsigned bands = std::max(1u, std::min<unsigned>(threads, count));
    std::vector<std::thread> workers;
    workers.reserve(bands);
    auto bandBegin = [&](unsigned b) { return uint32_t(uint64_t(count) * b / bands); };
    for (unsigned b = 1; b < bands; ++b) {
        try {
            workers.emplace_back(fn, bandBegin(b), bandBegin(b + 1), b);
        } catch (const std::system_error&) {
            fn(bandBegin(b), bandBegin(b + 1), b);
        }
    }
    fn(bandBegin(0), bandBegin(1), 0u);
    for (std::thread& w : workers) w.join();
}

// Sizes `v` to `n` zeros. For large buffers it first asks Linux for transparent huge pages (an
// advice only; nothing changes where THP is off): level 0 of a 4096x4096 RGBA chain is 512 MiB of
// doubles, and faulting that in 4 KiB pages cost more than all the filtering (measured on two
// cores: about 0.45 s for the whole chain with 4 KiB pages, 0.25 s with huge pages).
void resizeZeroed(std::vector<double>& v, size_t n) {
#ifdef __linux__
    constexpr size_t kHugeAdviceBytes = size_t(8) << 20;
    const size_t bytes = n * sizeof(double);
    if (bytes >= kHugeAdviceBytes && v.capacity() < n) {
        v.reserve(n);  // Allocates without touching, so the advice applies to the first faults.
        const long page = sysconf(_SC_PAGESIZE);
        if (page > 0) {
            const uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
            const uintptr_t begin = (p + uintptr_t(page) - 1) & ~(uintptr_t(page) - 1);
            const uintptr_t end = (p + bytes) & ~(uintptr_t(page) - 1);
            if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
        }
    }
#endif
    v.resize(n);
}

// Below this many destination values a level is computed on the calling thread: starting threads
// would cost more than the work.
constexpr size_t kMinValuesPerThread = 32 * 1024;

unsigned threadsFor(size_t values, unsigned threads) {
    const size_t useful = std::max<size_t>(1, values / kMinValuesPerThread);
    return unsigned(std::min<size_t>(threads, useful));
}

}  // namespace

uint32_t fullMipCount(uint32_t width, uint32_t height) {
    uint32_t m = std::max(width, height);
    uint32_t levels = 0;  // A zero-sized image has no levels.
    while (m) {
        ++levels;
        m >>= 1;
    }
    return levels;
}

namespace {

// One destination texel of a Min / Max / MinMax / Custom level: the source texels with a non-zero
// weight (Min, Max, MinMax), or the separable weighted accumulation of a custom reduction.
void reduceTexel(const ReferenceLevel& src, const Taps& tx, const Taps& ty, double sx, double sy,
                 const ReferenceOptions& o, double* out) {
    const uint32_t c = src.channels;
    const double* base = src.texels.data();
    auto at = [&](uint32_t x, uint32_t y) { return base + (size_t(y) * src.width + x) * c; };
    if (o.reduction == Reduction::Custom) {
        double acc[4];
        o.custom->identity(acc);
        for (uint32_t b = 0; b < ty.count; ++b) {
            if (ty.weight[b] == 0.0) continue;
            double row[4];
            o.custom->identity(row);
            for (uint32_t a = 0; a < tx.count; ++a) {
                if (tx.weight[a] == 0.0) continue;
                double v[4] = {0.0, 0.0, 0.0, 0.0};
                const double* p = at(tx.first + a, ty.first + b);
                for (uint32_t k = 0; k < c; ++k) v[k] = p[k];
                o.custom->accumulate(row, v, tx.weight[a] / sx);
            }
            o.custom->accumulate(acc, row, ty.weight[b] / sy);
        }
        for (uint32_t k = 0; k < c; ++k) out[k] = acc[k];
        return;
    }
    for (uint32_t k = 0; k < c; ++k) {
        const bool takeMin = o.reduction == Reduction::Min || (o.reduction == Reduction::MinMax && k == 0);
        double r = 0.0;
        bool first = true;
        for (uint32_t b = 0; b < ty.count; ++b) {
            if (ty.weight[b] == 0.0) continue;
            for (uint32_t a = 0; a < tx.count; ++a) {
                if (tx.weight[a] == 0.0) continue;
                const double v = at(tx.first + a, ty.first + b)[k];
                // NaN propagates: a NaN tap makes the result NaN, like IEEE arithmetic.
                if (first || std::isnan(v) || (takeMin ? v < r : v > r)) r = v;
                if (std::isnan(v)) break;
                first = false;
            }
            if (std::isnan(r)) break;
        }
        out[k] = r;
    }
}

// Rounds every value of `level` to `format` and back.
bool roundTo(VkFormat format, ReferenceLevel& level) {
    FormatInfo fi;
    if (!getFormatInfo(format, &fi) || fi.channels != level.channels) return false;
    const size_t texels = size_t(level.width) * level.height;
    std::vector<unsigned char> bytes(texels * fi.bytesPerTexel);
    std::vector<float> back(texels * fi.channels);
    if (!encodeTexels(format, level.texels.data(), texels, bytes.data()) ||
        !decodeTexels(format, bytes.data(), texels, back.data()))
        return false;
    for (size_t i = 0; i < back.size(); ++i) level.texels[i] = double(back[i]);
    return true;
}

}  // namespace

// Returns an empty vector when there is nothing to compute (null data, a zero extent or channel
// count, levelCount 0, options that do not fit the channels) or when memory runs out: no
// exception leaves this function.
std::vector<ReferenceLevel> referenceChain(const float* level0, uint32_t width, uint32_t height,
                                           uint32_t channels, uint32_t levelCount,
                                           const ReferenceOptions& options) {
    std::vector<ReferenceLevel> chain;
    if (!level0 || width == 0 || height == 0 || channels == 0 || channels > 4 || levelCount == 0)
        return chain;
    if (options.reduction == Reduction::MinMax && channels > 2) return chain;
    if (options.reduction == Reduction::Custom &&
        (!options.custom || !options.custom->identity || !options.custom->accumulate))
        return chain;
    unsigned threads = options.threads;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const uint32_t outChannels = options.reduction == Reduction::MinMax ? 2 : channels;

    try {
        chain.resize(levelCount);

        // Level 0: a copy of the input, widened to double (MinMax of one channel: the value
        // twice), rows split among threads.
        ReferenceLevel& base = chain[0];
        base.width = width;
        base.height = height;
        base.channels = outChannels;
        const size_t rowValues = size_t(width) * channels;
        resizeZeroed(base.texels, size_t(width) * outChannels * height);
        parallelFor(height, threadsFor(rowValues * height, threads),
                    [&](uint32_t begin, uint32_t end, unsigned) {
                        const float* s = level0 + size_t(begin) * rowValues;
                        double* d = base.texels.data() + size_t(begin) * width * outChannels;
                        const size_t n = size_t(end - begin) * rowValues;
                        if (outChannels == channels) {
                            for (size_t i = 0; i < n; ++i) d[i] = double(s[i]);
                        } else {
                            for (size_t i = 0; i < n; ++i) d[2 * i] = d[2 * i + 1] = double(s[i]);
                        }
                    });

        for (uint32_t level = 1; level < levelCount; ++level) {
            const ReferenceLevel& src = chain[level - 1];
            ReferenceLevel& dst = chain[level];
            dst.width = mipExtent(src.width, 1);
            dst.height = mipExtent(src.height, 1);
            dst.channels = outChannels;
            resizeZeroed(dst.texels, size_t(dst.width) * dst.height * outChannels);

            const AxisFilter fx = makeAxisFilter(src.width);
            const AxisFilter fy = makeAxisFilter(src.height);
            const size_t dstRow = size_t(dst.width) * outChannels;
            const unsigned used = std::min(threadsFor(dst.texels.size(), threads), dst.height);
            if (options.reduction == Reduction::Average) {
                std::vector<double> scratch(size_t(used) * 3 * dstRow);
                parallelFor(dst.height, used, [&](uint32_t begin, uint32_t end, unsigned band) {
                    filterRows(src, dst, fx, fy, begin, end, scratch.data() + size_t(band) * 3 * dstRow);
                });
            } else {
                parallelFor(dst.height, used, [&](uint32_t begin, uint32_t end, unsigned) {
                    for (uint32_t y = begin; y < end; ++y)
                        for (uint32_t x = 0; x < dst.width; ++x)
                            reduceTexel(src, fx.taps[x], fy.taps[y], fx.weightSum, fy.weightSum, options,
                                        dst.texels.data() + size_t(y) * dstRow + size_t(x) * outChannels);
                });
            }
            if (options.roundEachLevelTo != VK_FORMAT_UNDEFINED && !roundTo(options.roundEachLevelTo, dst)) {
                chain.clear();
                return chain;
            }
        }
    } catch (const std::bad_alloc&) {
        chain.clear();
        chain.shrink_to_fit();
    }
    return chain;
}

std::vector<ReferenceLevel> referenceChain(const float* level0, uint32_t width, uint32_t height,
                                           uint32_t channels, uint32_t levelCount,
                                           unsigned threads) {
    ReferenceOptions options;
    options.threads = threads;
    return referenceChain(level0, width, height, channels, levelCount, options);
}

}  // namespace vkspd
