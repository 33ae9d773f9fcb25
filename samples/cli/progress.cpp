#include "progress.hpp"

#include <algorithm>
#include <unistd.h>

namespace vkspd_cli {

Progress::Progress(size_t inputs, bool quiet)
    : inputs_(inputs), quiet_(quiet), terminal_(isatty(fileno(stderr)) != 0) {}

void Progress::update(size_t index, const std::string& name, const char* stage, double fraction) {
    if (quiet_ || !terminal_) return;
    const double done = (double(index) + std::clamp(fraction, 0.0, 1.0)) / double(std::max<size_t>(inputs_, 1));
    constexpr int kWidth = 28;
    const int filled = int(done * kWidth + 0.5);
    std::string bar(size_t(filled), '#');
    bar.resize(kWidth, '.');
    std::string label = name;
    if (label.size() > 36) label = "..." + label.substr(label.size() - 33);
    std::fprintf(stderr, "\r\033[K[%s] %3d%%  %zu/%zu %s: %s", bar.c_str(), int(done * 100 + 0.5), index + 1, inputs_,
                 label.c_str(), stage);
    std::fflush(stderr);
    drawn_ = true;
}

void Progress::finish(size_t index, const std::string& name, const std::string& status) {
    if (quiet_) return;
    if (terminal_) {
        update(index, name, status == "ok" ? "done" : "failed", 1.0);
        return;
    }
    if (inputs_ > 1) std::fprintf(stderr, "vkspd: [%zu/%zu] %s: %s\n", index + 1, inputs_, name.c_str(), status.c_str());
}

void Progress::clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
}

}  // namespace vkspd_cli
