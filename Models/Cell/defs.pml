/* Constants of the cell model and the macros configurations use (see cell.pml). */

#define K_INLINE  1   /* callback on the immediate context (consumer) */
#define K_SCHED   2   /* callback on the serial queue (consumer) */
#define K_WAKE    3   /* waiter's wake-up (consumer) */
#define K_OBS     4   /* observer (not a consumer) */
#define K_HANDLER 5   /* cancellation handler (not a consumer) */
#define ISCONSUMER(e) (kind[e] <= K_WAKE)
#define NOCHAIN 255

/* phases of a removable entry (plain entries use P_NEW / P_LIVE only) */
#define P_NEW   0
#define P_LIVE  1
#define P_ASKED 2
#define P_GONE  3
#define P_WD    4   /* removed before it was registered */
#define P_WDL   5   /* removed, leaving, before it was registered */

/* the flag word: Future.Flags and the tag bits of Future.Representation */
#define F_REQ     1
#define F_COMPL   2
#define F_HAND    4
#define F_ACC     8
#define F_TALLIED 16
#define T_COMPL   32
#define T_LATE    64
#define SETTLED_MASK (F_COMPL | F_HAND | T_COMPL | T_LATE)

/* what the state words hold */
#define W_PEND 0
#define W_VAL  1
#define W_LATE 2

/* operations of a thread's script */
#define O_NONE     0
#define O_REG      1
#define O_ASK      2
#define O_REM      3
#define O_LEAVE    4
#define O_REQ      5
#define O_COMPLETE 6
#define O_ABANDON  7
#define O_READ     8

#define QUEUE 9       /* runner id of the serial queue */

/* configuration helpers, for `inline setup()` */
#define ENTRY(e, k, r) kind[e] = k; rmv[e] = r
#define CHAIN(e, d) chain[e] = d
#define OP(t, i, o, a) op[(t) * NOPS + (i)] = o; arg[(t) * NOPS + (i)] = a
