// Progress on standard error: a bar redrawn in place on a terminal, plain lines for batches
// otherwise, nothing with --quiet.
#pragma once

#include <cstdio>
#include <string>

namespace vkspd_cli {

class Progress {
public:
    // `inputs`: how many inputs the run has.
    Progress(size_t inputs, bool quiet);
    ~Progress() { clear(); }

    // Input `index` (0-based) named `name` is at `stage` ("loading", "generating", ...), which is
    // `fraction` (0..1) of the way through that input.
    void update(size_t index, const std::string& name, const char* stage, double fraction);

    // Input `index` is finished; `status` is "ok" or the error line. Prints a plain line for
    // batches when standard error is not a terminal.
    void finish(size_t index, const std::string& name, const std::string& status);

    // Erases the bar so that another line can be printed; the next update redraws it.
    void clear();

    bool terminal() const { return terminal_; }

private:
    size_t inputs_;
    bool quiet_, terminal_;
    bool drawn_ = false;
};

}  // namespace vkspd_cli
