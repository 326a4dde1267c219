#ifndef CFUTURES_SHIMS_H
#define CFUTURES_SHIMS_H

// Tiny C helpers that Swift cannot express itself: for `ParkingLock` (Sources/Futures/Core/ParkingLock.swift),
// glibc's `syscall` is variadic, so the futex calls need a C wrapper, and a spin-wait hint has no portable
// Swift spelling; for `Trampoline` (Sources/Futures/Core/Trampoline.swift), Swift has no thread-local
// variables.

#include <stdint.h>

/// Tells the CPU that the caller is busy-waiting (x86 `pause`, ARM `yield`): it saves power and lets
/// the sibling hyper-thread, which may be the lock holder, run.
static inline void cfutures_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/// Blocks the calling thread while `*word == expected` (Linux: `FUTEX_WAIT_PRIVATE`).
///
/// May return early (a wake-up, a signal, or `*word` already differed): the caller re-checks the word
/// and calls again if needed. On platforms without futexes it yields the processor and returns.
void cfutures_futex_wait(uint32_t *word, uint32_t expected);

/// Wakes at most one thread blocked in `cfutures_futex_wait` on `word` (Linux: `FUTEX_WAKE_PRIVATE`).
/// A no-op on platforms without futexes.
void cfutures_futex_wake_one(uint32_t *word);

/// The calling thread's trampoline (`Trampoline.State` in Sources/Futures/Core/Trampoline.swift), or NULL
/// before its first use: a thread-local variable, read in a few instructions, where `pthread_getspecific`
/// and the lazily created key cost a call each.
extern _Thread_local void *cfutures_trampoline_slot;

/// The calling thread's trampoline, or NULL.
static inline void *cfutures_trampoline_get(void) {
    return cfutures_trampoline_slot;
}

/// Sets the calling thread's trampoline.
static inline void cfutures_trampoline_set(void *state) {
    cfutures_trampoline_slot = state;
}

#endif
