/* The hand-out to a serial queue: callbacks registered while pending and late ones from two threads
 * while the completer hands out, a lock-free read racing the late registrations, and a queue that may
 * be held back until every thread has finished. */
#include "../defs.pml"
#define NT 3
#define NE 3
#define NOPS 2
#define MAXD 1
#define HOLD_QUEUE
#define S1 0
#define S2 1
#define S3 2
inline setup() {
    ENTRY(S1, K_SCHED, 0); ENTRY(S2, K_SCHED, 0); ENTRY(S3, K_SCHED, 0);
    OP(0, 0, O_REG, S1); OP(0, 1, O_COMPLETE, 0);
    OP(1, 0, O_REG, S2); OP(1, 1, O_READ, 0);
    OP(2, 0, O_REG, S3)
}
#include "../cell.pml"
