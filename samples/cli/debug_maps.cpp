#include "debug_maps.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vkspd_cli {

namespace {

constexpr uint32_t kMargin = 8;       // pixels around the tiles and the legend
constexpr uint32_t kFontScale = 2;    // digits are 3x5 cells of this many pixels
constexpr uint8_t kGrey[3] = {96, 96, 96};

// 3x5 digits, one bit per cell, row-major from the top left (bit 14 first).
constexpr uint16_t kDigits[10] = {0x7B6F, 0x2C97, 0x73E7, 0x73CF, 0x5BC9, 0x79CF, 0x79EF, 0x7249, 0x7BEF, 0x7BCF};

Picture blank(uint32_t w, uint32_t h) {
    Picture p;
    p.width = w;
    p.height = h;
    p.rgba.assign(size_t(w) * h * 4, 255);  // opaque white
    return p;
}

void fill(Picture* p, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, const uint8_t rgb[3]) {
    for (uint32_t y = y0; y < std::min(p->height, y0 + h); ++y)
        for (uint32_t x = x0; x < std::min(p->width, x0 + w); ++x) {
            uint8_t* px = &p->rgba[(size_t(y) * p->width + x) * 4];
            px[0] = rgb[0], px[1] = rgb[1], px[2] = rgb[2], px[3] = 255;
        }
}

uint32_t textWidth(const std::string& text) { return uint32_t(text.size()) * 4 * kFontScale; }

// Draws decimal `text` (digits only) in black with its top-left at (x, y).
void drawText(Picture* p, uint32_t x, uint32_t y, const std::string& text) {
    static const uint8_t black[3] = {0, 0, 0};
    for (char ch : text) {
        if (ch >= '0' && ch <= '9') {
            const uint16_t bits = kDigits[ch - '0'];
            for (uint32_t r = 0; r < 5; ++r)
                for (uint32_t c = 0; c < 3; ++c)
                    if (bits & (1u << (14 - (r * 3 + c))))
                        fill(p, x + c * kFontScale, y + r * kFontScale, kFontScale, kFontScale, black);
        }
        x += 4 * kFontScale;
    }
}

// A perceptually ordered gradient (dark blue, blue, teal, green, yellow), t in [0, 1].
void gradient(double t, uint8_t rgb[3]) {
    static const double stops[5][3] = {{48, 18, 99}, {49, 104, 142}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = std::min(1.0, std::max(0.0, t)) * 4.0;
    const int i = std::min(3, int(t));
    const double f = t - i;
    for (int c = 0; c < 3; ++c) rgb[c] = uint8_t(std::lround(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f));
}

}  // namespace

uint32_t cellSize(uint32_t tilesX, uint32_t tilesY) {
    const uint32_t larger = std::max(1u, std::max(tilesX, tilesY));
    return std::max(1u, std::min(16u, 1024u / larger));
}

void smColour(uint32_t id, uint8_t rgb[3]) {
    // Hues a golden angle apart, alternating saturation and value, so neighbours in id differ.
    const double h = std::fmod(id * 0.618033988749895, 1.0) * 6.0;
    const double s = (id / 2) % 2 ? 0.55 : 0.85, v = id % 2 ? 0.70 : 0.95;
    const int i = int(h) % 6;
    const double f = h - std::floor(h), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r = 0, g = 0, b = 0;
    switch (i) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    rgb[0] = uint8_t(std::lround(r * 255));
    rgb[1] = uint8_t(std::lround(g * 255));
    rgb[2] = uint8_t(std::lround(b * 255));
}

Picture renderOrderMap(const std::vector<vkspd::DebugMapTile>& map, uint32_t tilesX, uint32_t tilesY) {
    const uint32_t cell = cellSize(tilesX, tilesY);
    const uint32_t n = tilesX * tilesY;
    const std::string last = std::to_string(n ? n - 1 : 0);
    const uint32_t barHeight = 16, textHeight = 5 * kFontScale;
    const uint32_t width = std::max(tilesX * cell, 64u + textWidth(last)) + 2 * kMargin;
    const uint32_t height = tilesY * cell + barHeight + textHeight + 4 * kMargin;
    Picture p = blank(width, height);
    for (uint32_t t = 0; t < n && t < map.size(); ++t) {
        uint8_t rgb[3] = {kGrey[0], kGrey[1], kGrey[2]};
        if (map[t].flags & 1u) gradient(n > 1 ? double(map[t].order) / (n - 1) : 0.0, rgb);
        fill(&p, kMargin + (t % tilesX) * cell, kMargin + (t / tilesX) * cell, cell, cell, rgb);
    }
    // The legend: the gradient from first to last, labelled at both ends.
    const uint32_t barY = tilesY * cell + 2 * kMargin, barWidth = width - 2 * kMargin;
    for (uint32_t x = 0; x < barWidth; ++x) {
        uint8_t rgb[3];
        gradient(barWidth > 1 ? double(x) / (barWidth - 1) : 0.0, rgb);
        fill(&p, kMargin + x, barY, 1, barHeight, rgb);
    }
    drawText(&p, kMargin, barY + barHeight + kMargin, "0");
    drawText(&p, width - kMargin - textWidth(last), barY + barHeight + kMargin, last);
    return p;
}

Picture renderSmMap(const std::vector<vkspd::DebugMapTile>& map, uint32_t tilesX, uint32_t tilesY,
                    uint32_t smCount) {
    for (const vkspd::DebugMapTile& t : map)
        if (t.flags & 2u) smCount = std::max(smCount, t.smId + 1);
    const uint32_t cell = cellSize(tilesX, tilesY);
    const uint32_t n = tilesX * tilesY;
    // Legend: swatches of 16x16 with their id below, as many per row as fit.
    const uint32_t swatch = 16, label = textWidth(std::to_string(smCount ? smCount - 1 : 0));
    const uint32_t pitch = std::max(swatch, label) + 6, rowHeight = swatch + 5 * kFontScale + 8;
    const uint32_t width = std::max(tilesX * cell, 8 * pitch) + 2 * kMargin;
    const uint32_t perRow = std::max(1u, (width - 2 * kMargin) / pitch);
    const uint32_t rows = (smCount + perRow - 1) / perRow;
    const uint32_t height = tilesY * cell + rows * rowHeight + 3 * kMargin;
    Picture p = blank(width, height);
    for (uint32_t t = 0; t < n && t < map.size(); ++t) {
        uint8_t rgb[3] = {kGrey[0], kGrey[1], kGrey[2]};
        if (map[t].flags & 2u) smColour(map[t].smId, rgb);
        fill(&p, kMargin + (t % tilesX) * cell, kMargin + (t / tilesX) * cell, cell, cell, rgb);
    }
    const uint32_t legendY = tilesY * cell + 2 * kMargin;
    for (uint32_t id = 0; id < smCount; ++id) {
        uint8_t rgb[3];
        smColour(id, rgb);
        const uint32_t x = kMargin + (id % perRow) * pitch, y = legendY + (id / perRow) * rowHeight;
        fill(&p, x, y, swatch, swatch, rgb);
        drawText(&p, x, y + swatch + 3, std::to_string(id));
    }
    return p;
}

SmTileCounts countTilesPerSm(const std::vector<vkspd::DebugMapTile>& map, uint32_t smCount) {
    SmTileCounts c;
    for (const vkspd::DebugMapTile& t : map)
        if (t.flags & 2u) smCount = std::max(smCount, t.smId + 1);
    c.sms = smCount;
    c.perSm.assign(smCount, 0);
    for (const vkspd::DebugMapTile& t : map)
        if (t.flags & 2u) ++c.perSm[t.smId];
    if (!smCount) return c;
    std::vector<uint32_t> sorted = c.perSm;
    std::sort(sorted.begin(), sorted.end());
    c.min = sorted.front();
    c.max = sorted.back();
    c.median = smCount % 2 ? sorted[smCount / 2] : 0.5 * (sorted[smCount / 2 - 1] + sorted[smCount / 2]);
    c.idle = uint32_t(std::count(sorted.begin(), sorted.end(), 0u));
    return c;
}

bool mapIsComplete(const std::vector<vkspd::DebugMapTile>& map, std::string* problem) {
    std::vector<bool> seen(map.size(), false);
    for (size_t t = 0; t < map.size(); ++t) {
        if (!(map[t].flags & 1u)) {
            *problem = "tile " + std::to_string(t) + " has no entry";
            return false;
        }
        if (map[t].order >= map.size() || seen[map[t].order]) {
            *problem = "finish order " + std::to_string(map[t].order) + " of tile " + std::to_string(t) +
                       " is out of range or repeated";
            return false;
        }
        seen[map[t].order] = true;
    }
    return true;
}

}  // namespace vkspd_cli

namespace vkspd_cli {

namespace {
const char* sourceName(vkspd::OccupancySource s) {
    switch (s) {
    case vkspd::OccupancySource::Driver: return "driver";
    case vkspd::OccupancySource::Computed: return "computed";
    case vkspd::OccupancySource::NotAvailable: break;
    }
    return "not available";
}
}  // namespace

std::string occupancyTable(const std::vector<vkspd::OccupancyRecord>& records, const std::string& deviceName) {
    std::string out = "occupancy on " + deviceName;
    if (!records.empty() && records.front().smCount) out += " (" + std::to_string(records.front().smCount) + " SMs)";
    out += "\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-32s %-13s %9s %12s %9s %10s %10s %10s  %s\n", "variant", "source",
                  "regs/thr", "shared B/grp", "subgroup", "groups/SM", "warps/SM", "occupancy", "limited by");
    out += line;
    for (const vkspd::OccupancyRecord& r : records) {
        const std::string regs = r.resources.registersPerThread ? std::to_string(r.resources.registersPerThread) : "?";
        if (r.source == vkspd::OccupancySource::NotAvailable) {
            std::snprintf(line, sizeof line, "%-32s %-13s %9s %12u %9u %10s %10s %10s  %s\n", r.variant.c_str(),
                          sourceName(r.source), regs.c_str(), r.resources.sharedMemoryPerGroup,
                          r.resources.subgroupSize, "n/a", "n/a", "n/a", "n/a");
        } else {
            const std::string warps =
                std::to_string(r.occupancy.subgroupsPerSm) + "/" + std::to_string(r.occupancy.maxSubgroupsPerSm);
            char pct[16];
            std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * r.occupancy.occupancy);
            std::snprintf(line, sizeof line, "%-32s %-13s %9s %12u %9u %10u %10s %10s  %s\n", r.variant.c_str(),
                          sourceName(r.source), regs.c_str(), r.resources.sharedMemoryPerGroup,
                          r.resources.subgroupSize, r.occupancy.groupsPerSm, warps.c_str(), pct,
                          vkspd::limiterName(r.occupancy.limiter));
        }
        out += line;
    }
    if (!records.empty()) {
        const vkspd::OccupancyRecord& r = records.front();
        out += "per-SM limits: " + r.limitsSource + "\n";
        if (r.source == vkspd::OccupancySource::Computed)
            out += "registers per thread: unknown without VK_KHR_pipeline_executable_properties (not counted as a "
                   "limit); shared memory from the shader's declarations\n";
    }
    for (const vkspd::OccupancyRecord& r : records)
        if (!r.driverStatistics.empty()) out += "driver statistics, " + r.variant + ": " + r.driverStatistics + "\n";
    return out;
}

std::string occupancyShort(const vkspd::OccupancyRecord& r) {
    if (r.source == vkspd::OccupancySource::NotAvailable) return "n/a";
    char text[96];
    std::snprintf(text, sizeof text, "%.1f%% (%u groups, %s%s)", 100.0 * r.occupancy.occupancy,
                  r.occupancy.groupsPerSm, vkspd::limiterName(r.occupancy.limiter),
                  r.source == vkspd::OccupancySource::Computed ? ", computed" : "");
    return text;
}

}  // namespace vkspd_cli
