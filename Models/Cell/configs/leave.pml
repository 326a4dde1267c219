/* Leaves: a waiter that leaves (possibly before it registered) while another consumer still waits and is
 * taken back later without asking (the leave's ask must stand: its removal makes the request), and an
 * observer that must not count. */
#include "../defs.pml"
#define NT 3
#define NE 4
#define NOPS 3
#define MAXD 1
#define H 0
#define A 1
#define O 2
#define B 3
inline setup() {
    ENTRY(H, K_HANDLER, 0); ENTRY(A, K_WAKE, 1); ENTRY(O, K_OBS, 0); ENTRY(B, K_SCHED, 1);
    OP(0, 0, O_REG, H); OP(0, 1, O_REG, A); OP(0, 2, O_REG, O);
    OP(1, 0, O_LEAVE, A);
    OP(2, 0, O_REG, B); OP(2, 1, O_REM, B)
}
#include "../cell.pml"
