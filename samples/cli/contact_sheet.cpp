#include "contact_sheet.hpp"

#include <vkspd/reference.hpp>

#include <algorithm>
#include <cstring>

namespace vkspd_cli {

ContactSheet planContactSheet(uint32_t width, uint32_t height, uint32_t levelCount, uint32_t maxSide) {
    ContactSheet sheet;
    uint32_t first = 0;
    while (first + 1 < levelCount &&
           std::max(vkspd::mipExtent(width, first), vkspd::mipExtent(height, first)) > maxSide)
        ++first;
    sheet.firstLevel = first;
    sheet.x.assign(levelCount, 0);
    for (uint32_t l = first; l < levelCount; ++l) {
        if (l > first) sheet.width += kContactSheetGap;
        sheet.x[l] = sheet.width;
        sheet.width += vkspd::mipExtent(width, l);
        sheet.height = std::max(sheet.height, vkspd::mipExtent(height, l));
    }
    sheet.rgba.assign(size_t(sheet.width) * sheet.height * 4, 0);
    return sheet;
}

void placeLevel(ContactSheet* sheet, uint32_t level, const ViewImage& view) {
    if (level < sheet->firstLevel || level >= sheet->x.size() || view.height > sheet->height ||
        sheet->x[level] + view.width > sheet->width)
        return;
    const std::vector<uint8_t> rgba = previewRgba8(view);
    for (uint32_t y = 0; y < view.height; ++y)
        std::memcpy(&sheet->rgba[(size_t(y) * sheet->width + sheet->x[level]) * 4], &rgba[size_t(y) * view.width * 4],
                    size_t(view.width) * 4);
}

}  // namespace vkspd_cli
