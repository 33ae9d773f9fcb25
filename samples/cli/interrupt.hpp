// SIGINT and SIGTERM as a request to stop: the handler only records the signal, and the CLI checks
// for it between the steps of an input, so that it stops with every output whole or absent.
#pragma once

namespace vkspd_cli {

// Installs the handlers for SIGINT and SIGTERM (SA_RESTART, so that no system call of the driver's
// or the layers' threads fails with EINTR). Call once, before any other thread starts.
void installInterruptHandlers();

// The first of SIGINT or SIGTERM received since installInterruptHandlers(), or 0.
int interruptSignal();

// "SIGINT" or "SIGTERM".
const char* signalName(int signal);

// Blocks SIGINT and SIGTERM on the calling thread while it exists, so that the threads it starts
// meanwhile (a Vulkan driver's, the validation layer's) inherit the block and a signal is always
// handled on the main thread; a signal that comes meanwhile is handled when the block ends.
class InterruptsBlocked {
public:
    InterruptsBlocked();
    ~InterruptsBlocked();
    InterruptsBlocked(const InterruptsBlocked&) = delete;
    InterruptsBlocked& operator=(const InterruptsBlocked&) = delete;
};

}  // namespace vkspd_cli
