/* Asks, removal and an explicit request racing the completion; a handler registered late. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define H 0
#define A 1
#define B 2
#define H2 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(A, K_SCHED, 1); ENTRY(B, K_WAKE, 1); ENTRY(H2, K_HANDLER, 0);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, A); OP(0, 2, O_COMPLETE, 0);
    OP(1, 0, O_REG, B); OP(1, 1, O_ASK, B); OP(1, 2, O_REM, B);
    OP(2, 0, O_ASK, A); OP(2, 1, O_REQ, 0); OP(2, 2, O_REG, H2)
}
#include "../cell.pml"
