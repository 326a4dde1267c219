#include "CFuturesShims.h"

#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

void cfutures_futex_wait(uint32_t *word, uint32_t expected) {
    // The result is ignored on purpose: EAGAIN (the word changed), EINTR (a signal) and a wake-up all
    // mean "look at the word again", which the caller does.
    (void)syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void cfutures_futex_wake_one(uint32_t *word) {
    (void)syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

#else
#include <sched.h>

// No futex: waiting degrades to yielding the processor, and the caller's retry loop turns the lock
// into a spin-then-yield lock. Darwin never calls these (it uses os_unfair_lock).
void cfutures_futex_wait(uint32_t *word, uint32_t expected) {
    (void)word;
    (void)expected;
    sched_yield();
}

void cfutures_futex_wake_one(uint32_t *word) {
    (void)word;
}
#endif
