/* Completion racing a second completion and registrations: a waiter, an immediate callback whose body
 * registers another one on the same future (trampoline at depth MAXD), a callback for the queue, and a
 * lock-free read. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 2
#define MAXD 1
#define W 0
#define I 1
#define D 2
#define S 3
inline setup() {
    ENTRY(W, K_WAKE, 0); ENTRY(I, K_INLINE, 0); ENTRY(D, K_INLINE, 0); ENTRY(S, K_SCHED, 0);
    CHAIN(I, D);
    OP(0, 0, O_REG, W); OP(0, 1, O_COMPLETE, 0);
    OP(1, 0, O_READ, 0); OP(1, 1, O_REG, I);
    OP(2, 0, O_REG, S); OP(2, 1, O_COMPLETE, 0)
}
#include "../cell.pml"
