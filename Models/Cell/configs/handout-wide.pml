/* A wider hand-out: two callbacks for the queue pending, late registrations from two threads, each
 * followed by a lock-free read, and a queue that may be held back. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define HOLD_QUEUE
#define S1 0
#define S2 1
#define S3 2
#define S4 3
inline setup() {
    ENTRY(S1, K_SCHED, 0); ENTRY(S2, K_SCHED, 0); ENTRY(S3, K_SCHED, 0); ENTRY(S4, K_SCHED, 0);
    OP(0, 0, O_REG, S1); OP(0, 1, O_REG, S2); OP(0, 2, O_COMPLETE, 0);
    OP(1, 0, O_REG, S3); OP(1, 1, O_READ, 0);
    OP(2, 0, O_REG, S4); OP(2, 1, O_READ, 0)
}
#include "../cell.pml"
