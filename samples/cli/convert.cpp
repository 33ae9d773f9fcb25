#include "convert.hpp"

#include <vkspd/reference.hpp>

#include <algorithm>
#include <cmath>

namespace vkspd_cli {

double srgbToLinear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double l) {
    return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

namespace {

bool isBgra(VkFormat f) {
    return f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_B8G8R8A8_SRGB;
}

}  // namespace

bool makeLevel0(const LoadedImage& image, VkFormat format, bool srgbInput, bool minmax,
                std::vector<uint8_t>* texels, std::string* reason) {
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi) || fi.depth) {
        *reason = "format " + std::to_string(int(format)) + " is not a colour format this build of the library supports";
        return false;
    }
    if (minmax && fi.channels != 2) {
        *reason = std::string("--reduction minmax needs a two-channel format (rg8, rg16, rg16f, rg32f), not ") + fi.name;
        return false;
    }
    const bool linearInput = image.type == SampleType::F32 || !srgbInput;
    const size_t count = image.texelCount();
    texels->assign(count * fi.bytesPerTexel, 0);
    // Converted in slices so that the doubles stay small for the largest images.
    const size_t slice = 1 << 16;
    std::vector<double> values(slice * fi.channels);
    for (size_t first = 0; first < count; first += slice) {
        const size_t n = std::min(slice, count - first);
        for (size_t t = 0; t < n; ++t) {
            double v[4] = {0, 0, 0, 0};
            const size_t base = (first + t) * 4;
            for (int c = 0; c < 4; ++c) {
                switch (image.type) {
                case SampleType::U8: v[c] = image.u8()[base + c] / 255.0; break;
                case SampleType::U16: v[c] = image.u16()[base + c] / 65535.0; break;
                case SampleType::F32: v[c] = image.f32()[base + c]; break;
                }
            }
            // The colour channels to what the format stores; alpha is always linear.
            for (int c = 0; c < 3; ++c) {
                switch (fi.encoding) {
                case vkspd::ChannelEncoding::Srgb8:
                    // encodeTexels takes linear values for sRGB formats.
                    if (!linearInput) v[c] = srgbToLinear(v[c]);
                    break;
                case vkspd::ChannelEncoding::Float16:
                case vkspd::ChannelEncoding::Float32:
                case vkspd::ChannelEncoding::Ufloat11_10:
                    if (!linearInput) v[c] = srgbToLinear(v[c]);
                    break;
                case vkspd::ChannelEncoding::Snorm8:
                    if (image.type != SampleType::F32) v[c] = 2.0 * v[c] - 1.0;
                    break;
                default: break;
                }
            }
            if (fi.encoding == vkspd::ChannelEncoding::Snorm8 && image.type != SampleType::F32)
                v[3] = 2.0 * v[3] - 1.0;
            double* out = &values[t * fi.channels];
            if (minmax) {
                out[0] = out[1] = v[0];
            } else {
                for (uint32_t c = 0; c < fi.channels; ++c) out[c] = v[c];
            }
        }
        if (!vkspd::encodeTexels(format, values.data(), n, texels->data() + first * fi.bytesPerTexel)) {
            *reason = std::string("this build of the library cannot encode ") + fi.name;
            return false;
        }
    }
    return true;
}

bool viewLevel(VkFormat format, const uint8_t* texels, uint32_t width, uint32_t height, ViewImage* view) {
    vkspd::FormatInfo fi;
    if (!vkspd::getFormatInfo(format, &fi)) return false;
    const size_t count = size_t(width) * height;
    const uint32_t inChannels = fi.channels;
    *view = ViewImage{};
    view->width = width;
    view->height = height;
    view->channels = inChannels == 1 ? 1 : inChannels == 2 ? 3 : inChannels;
    const uint32_t outChannels = view->channels;
    auto place = [&](size_t t, uint32_t c) { return t * outChannels + c; };

    if (fi.encoding == vkspd::ChannelEncoding::Unorm8 || fi.encoding == vkspd::ChannelEncoding::Srgb8) {
        // The stored codes are what a PNG holds (an sRGB PNG for sRGB formats).
        view->bits = 8;
        view->u8.assign(count * outChannels, 0);
        for (size_t t = 0; t < count; ++t)
            for (uint32_t c = 0; c < inChannels; ++c) {
                const uint32_t from = isBgra(format) && c != 3 ? 2 - c : c;
                view->u8[place(t, c)] = texels[t * inChannels + from];
            }
        return true;
    }
    std::vector<float> decoded(count * inChannels);
    if (!vkspd::decodeTexels(format, texels, count, decoded.data())) return false;
    switch (fi.encoding) {
    case vkspd::ChannelEncoding::Snorm8:
        view->bits = 8;
        view->u8.assign(count * outChannels, 0);
        for (size_t t = 0; t < count; ++t)
            for (uint32_t c = 0; c < inChannels; ++c) {
                const double v = std::clamp(double(decoded[t * inChannels + c]), -1.0, 1.0);
                view->u8[place(t, c)] = uint8_t(std::lround((v + 1.0) * 0.5 * 255.0));
            }
        return true;
    case vkspd::ChannelEncoding::Unorm16:
    case vkspd::ChannelEncoding::Unorm10_2:
        view->bits = 16;
        view->u16.assign(count * outChannels, 0);
        for (size_t t = 0; t < count; ++t)
            for (uint32_t c = 0; c < inChannels; ++c) {
                const double v = std::clamp(double(decoded[t * inChannels + c]), 0.0, 1.0);
                view->u16[place(t, c)] = uint16_t(std::lround(v * 65535.0));
            }
        return true;
    default:
        view->bits = 32;
        view->f32.assign(count * outChannels, 0.0f);
        for (size_t t = 0; t < count; ++t)
            for (uint32_t c = 0; c < inChannels; ++c) view->f32[place(t, c)] = decoded[t * inChannels + c];
        return true;
    }
}

std::vector<uint8_t> previewRgba8(const ViewImage& view) {
    const size_t count = size_t(view.width) * view.height;
    std::vector<uint8_t> rgba(count * 4);
    for (size_t t = 0; t < count; ++t) {
        uint8_t px[4] = {0, 0, 0, 255};
        for (uint32_t c = 0; c < view.channels; ++c) {
            const size_t i = t * view.channels + c;
            uint8_t v = 0;
            if (view.bits == 8) {
                v = view.u8[i];
            } else if (view.bits == 16) {
                v = uint8_t((uint32_t(view.u16[i]) * 255 + 32767) / 65535);
            } else {
                double f = view.f32[i];
                f = std::isnan(f) ? 0.0 : std::clamp(f, 0.0, 1.0);
                v = uint8_t(std::lround((c == 3 ? f : linearToSrgb(f)) * 255.0));
            }
            px[c] = v;
        }
        if (view.channels == 1) px[1] = px[2] = px[0];
        std::copy(px, px + 4, &rgba[t * 4]);
    }
    return rgba;
}

}  // namespace vkspd_cli
