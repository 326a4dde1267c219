/* Named asks: asked then removed, removed then asks, a second ask, a leave after asking, a plain
 * consumer's ask. No completion: the cancellation side only. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 5
#define MAXD 1
#define H 0
#define A 1
#define B 2
#define P 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(A, K_WAKE, 1); ENTRY(B, K_WAKE, 1); ENTRY(P, K_INLINE, 0);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, A); OP(0, 2, O_ASK, A); OP(0, 3, O_REM, A); OP(0, 4, O_ASK, A);
    OP(1, 0, O_REG, B); OP(1, 1, O_ASK, B); OP(1, 2, O_ASK, B); OP(1, 3, O_LEAVE, B);
    OP(2, 0, O_REG, P); OP(2, 1, O_ASK, P)
}
#include "../cell.pml"
