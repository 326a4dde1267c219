#include "CFuturesShims.h"

// One slot per thread; the Swift side frees what it points to through a pthread key's destructor.
_Thread_local void *cfutures_trampoline_slot = 0;
