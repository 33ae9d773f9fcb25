// Occupancy records of every pipeline flavour generateMips builds, for the developer tools
// (vkspd-bench's occupancy column, vkspd-pipeline-stats).
#pragma once

#include <vkspd/debug.hpp>

#include <cstdint>
#include <vector>

namespace vkspd_tools {

// queryOccupancy's records for `query` as given (four channels, texel loads: every kernel), then
// those of the flavours generateMips also builds of the plain-chain, halo-stage and summed-levels
// kernels: the halo-stage kernel at each other count in `channels`, and the three through the
// linear sampler (OccupancyRecord::linearFetch; the halo-stage kernel at every count in
// `channels` and four), and the halo-stage kernel whose stage 0 reads an odd base (OccupancyRecord::oddBase;
// texel loads) at every count, and the three through the gather (OccupancyRecord::gatherFetch:
// formats of one channel, so the halo-stage kernel at one); then, for each count in
// `normalizedChannels` (those of normalized formats: vkspd::usesNormalizedFlavour), the halo-stage
// kernel's normalized flavours (OccupancyRecord::normalizedValues) with loads, through the linear
// sampler and on an odd base, and at one channel through the gather.
// Appends to `records`; stops at the first error and returns it, with the records appended until
// then.
inline vkspd::Result queryEveryFlavour(vkspd::Context context, vkspd::OccupancyQueryInfo query,
                                       const std::vector<uint32_t>& channels,
                                       std::vector<vkspd::OccupancyRecord>* records,
                                       const std::vector<uint32_t>& normalizedChannels = {}) {
    std::vector<vkspd::OccupancyRecord> found;
    query.channels = 4;
    query.linearFetch = false;
    query.oddBase = false;
    vkspd::Result r = vkspd::queryOccupancy(context, query, &found);
    for (vkspd::OccupancyRecord& rec : found) records->push_back(std::move(rec));
    std::vector<uint32_t> counts;
    for (uint32_t n : channels)
        if (n != 4) counts.push_back(n);
    counts.push_back(4);
    for (bool linear : {false, true})
        for (uint32_t n : counts) {
            if (!r.ok()) return r;
            if (!linear && n == 4) continue;  // the first query's
            query.channels = n;
            query.linearFetch = linear;
            r = vkspd::queryOccupancy(context, query, &found);
            for (vkspd::OccupancyRecord& rec : found)
                if (rec.haloStages || ((rec.plainChain || rec.summedLevels) && n == 4))
                    records->push_back(std::move(rec));
        }
    query.linearFetch = false;
    query.oddBase = true;
    for (uint32_t n : counts) {
        if (!r.ok()) return r;
        query.channels = n;
        r = vkspd::queryOccupancy(context, query, &found);
        for (vkspd::OccupancyRecord& rec : found) records->push_back(std::move(rec));
    }
    query.oddBase = false;
    query.gatherFetch = true;
    query.channels = 1;
    if (!r.ok()) return r;
    r = vkspd::queryOccupancy(context, query, &found);
    for (vkspd::OccupancyRecord& rec : found) records->push_back(std::move(rec));
    query.gatherFetch = false;
    query.normalizedValues = true;
    for (uint32_t n : normalizedChannels)
        for (int flavour = 0; flavour < 4; ++flavour) {  // loads, the linear sampler, an odd base, the gather
            if (flavour == 3 && n != 1) continue;
            if (!r.ok()) return r;
            query.channels = n;
            query.linearFetch = flavour == 1;
            query.oddBase = flavour == 2;
            query.gatherFetch = flavour == 3;
            r = vkspd::queryOccupancy(context, query, &found);
            for (vkspd::OccupancyRecord& rec : found) records->push_back(std::move(rec));
        }
    return r;
}

}  // namespace vkspd_tools
