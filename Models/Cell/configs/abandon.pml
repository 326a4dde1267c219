/* A dropped promise (abandon) while consumers ask, one is removed, and an explicit request comes. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define H 0
#define P 1
#define A 2
#define B 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(P, K_INLINE, 0); ENTRY(A, K_WAKE, 1); ENTRY(B, K_WAKE, 1);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, P); OP(0, 2, O_ABANDON, 0);
    OP(1, 0, O_REG, A); OP(1, 1, O_ASK, A);
    OP(2, 0, O_REG, B); OP(2, 1, O_REM, B); OP(2, 2, O_REQ, 0)
}
#include "../cell.pml"
