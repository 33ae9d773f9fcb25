// Replays tests/fuzz/corpus/ through the normal build's loading code (the fuzz target's entry
// point, then loadImage with the CLI's own limits) and checks each file against expected.txt:
//   NAME ok WxH          loads, with that size
//   NAME rejected TEXT   is refused with a reason containing TEXT
// Files the fuzzer adds to the corpus need no line: they must only not crash.
#include "image_load.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR EXPECTED_FILE\n", argv[0]);
        return 2;
    }
    std::map<std::string, std::string> expected;
    std::ifstream list(argv[2]);
    for (std::string line; std::getline(list, line);) {
        if (line.empty() || line[0] == '#') continue;
        const size_t space = line.find(' ');
        expected[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(argv[1]))
        if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    int failures = 0, checked = 0;
    for (const auto& path : files) {
        std::vector<uint8_t> bytes;
        std::string reason;
        if (!vkspd_cli::readFile(path.string(), &bytes, &reason)) {
            std::printf("FAIL %s: cannot read: %s\n", path.filename().c_str(), reason.c_str());
            ++failures;
            continue;
        }
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        vkspd_cli::LoadedImage image;
        vkspd_cli::LoadLimits limits;  // the CLI's defaults, with lavapipe's 16384
        const bool ok = vkspd_cli::loadImage(bytes.data(), bytes.size(), limits, &image, &reason);
        const std::string got = ok ? "ok " + std::to_string(image.width) + "x" + std::to_string(image.height)
                                   : "rejected " + reason;
        const auto want = expected.find(path.filename().string());
        bool pass = true;
        if (want != expected.end()) {
            ++checked;
            const std::string& w = want->second;
            pass = w.rfind("ok ", 0) == 0 ? got == w
                                          : (!ok && w.rfind("rejected ", 0) == 0 && got.find(w.substr(9)) != std::string::npos);
            expected.erase(want);
        }
        std::printf("%s %s: %s\n", pass ? "pass" : "FAIL", path.filename().c_str(), got.c_str());
        failures += pass ? 0 : 1;
    }
    for (const auto& missing : expected) {
        std::printf("FAIL %s: listed in expected.txt but not in the corpus\n", missing.first.c_str());
        ++failures;
    }
    std::printf("%zu files, %d with expectations, %d failed\n", files.size(), checked, failures);
    return failures ? 1 : 0;
}
