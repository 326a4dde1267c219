/* A removal (leaving) racing ahead of the registration it removes, while other consumers ask or wait. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define H 0
#define A 1
#define P 2
#define Q 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(A, K_WAKE, 1); ENTRY(P, K_INLINE, 0); ENTRY(Q, K_SCHED, 0);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, Q); OP(0, 2, O_REG, A);
    OP(1, 0, O_LEAVE, A);
    OP(2, 0, O_REG, P); OP(2, 1, O_ASK, P)
}
#include "../cell.pml"
