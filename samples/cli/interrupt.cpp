#include "interrupt.hpp"

#include <csignal>
#include <pthread.h>

namespace vkspd_cli {

namespace {

volatile std::sig_atomic_t gSignal = 0;

// Async-signal-safe: one store to a sig_atomic_t.
extern "C" void recordSignal(int signal) {
    if (gSignal == 0) gSignal = signal;
}

sigset_t interruptSet() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    return set;
}

}  // namespace

void installInterruptHandlers() {
    struct sigaction action = {};
    action.sa_handler = recordSignal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

int interruptSignal() { return gSignal; }

const char* signalName(int signal) { return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal"; }

InterruptsBlocked::InterruptsBlocked() {
    const sigset_t set = interruptSet();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

InterruptsBlocked::~InterruptsBlocked() {
    const sigset_t set = interruptSet();
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

}  // namespace vkspd_cli
