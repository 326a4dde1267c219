/* A leave after another consumer asked: the consumer that leaves had not asked, so its ask is added to the
 * tally (it stays counted), and a third consumer taken back without asking leaves only asks. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define H 0
#define A 1
#define B 2
#define C 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(A, K_WAKE, 1); ENTRY(B, K_WAKE, 1); ENTRY(C, K_SCHED, 1);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, A); OP(0, 2, O_ASK, A);
    OP(1, 0, O_REG, B); OP(1, 1, O_LEAVE, B);
    OP(2, 0, O_REG, C); OP(2, 1, O_REM, C)
}
#include "../cell.pml"
