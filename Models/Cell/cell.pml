/*
 * A model of one future (the "cell"): its lock, its flag word and the lock-free settled read, the pending
 * list with removal, the consumer tally and named asks, cancellation requests and handlers, completion and
 * the hand-out to a serial queue, and each thread's trampoline depth.
 *
 * A configuration file (configs/*.pml) includes defs.pml, defines NT (threads), NE (entries), NOPS
 * (operations per thread), MAXD (trampoline frames) and `inline setup()`, which gives each entry its kind
 * and each thread its script; then it includes this file. The compile-time switches MUT_* are deliberate
 * bugs, each of which the checker must catch (scripts/check-model.sh). STEPS.md maps every step below to
 * the Swift code.
 *
 * Properties (assertions; "no deadlock" is Spin's invalid-end-state check):
 *   G1  completes at most once
 *   G2  each callback runs exactly once; a removed one never; released ones never
 *   G3  the serial queue runs callbacks in registration order (late ones included); waiters are woken
 *       before the completion's callbacks; immediate callbacks run in registration order
 *   G4  a hand-out never waits for the queue; a registrant runs or hands out only its own callback
 *   G8  handlers run once per request; a request made by consumers happens only when every consumer
 *       registered while pending asked or was taken back, and at least one consumer that asked is still
 *       registered or left asking ("only when"); and whenever that holds while pending, the request has
 *       been made ("if"). A leave is a standing ask: the consumer stays counted as one that asked.
 *   RD  a reader without the lock that sees a settled future reads the payload, whole
 */

#ifdef MUT_REMOVED_RUNS
#define LIVE_ENTRY(x) 1
#else
#define LIVE_ENTRY(x) (phase[x] != P_GONE)
#endif

/* ---- configuration (constant after setup) ---- */
hidden byte kind[NE];
hidden byte rmv[NE];
hidden byte chain[NE];          /* an immediate callback whose body registers this entry, or NOCHAIN */
hidden byte op[NT * NOPS];
hidden byte arg[NT * NOPS];

/* ---- the cell ---- */
byte lk;                        /* the lock: 0 free, else holder + 1 */
byte fl;                        /* the flag word (atomic; written under the lock) */
byte w0, w1;                    /* the state words (two halves: a torn read mixes them) */
byte lst[NE]; byte llen;        /* the pending list, in registration order */
byte codeLen;                   /* entries the code's list holds (tombstones, handlers, tally included) */
byte cl[NE];  byte clen;        /* the list the completion took */
byte late[NE]; byte latelen;    /* callbacks queued behind the hand-out (completedWithLate) */
byte tc, ta;                    /* the consumer tally: consumers, asks */
byte phase[NE];
bit  inList[NE];                /* live in the pending list (not removed, taken, fired or released) */
bit  tomb[NE];                  /* a removed entry's tombstone, still in the code's list */

chan sq = [NE] of { byte };     /* the serial queue */
chan tq[NT] = [2] of { byte };  /* each thread's trampoline queue */
byte depth[NT];                 /* each thread's trampoline depth */

/* ---- ghost state for the properties ---- */
byte ncompl;                    /* successful completions */
byte completer = 255;
byte owner[NE];                 /* the thread that registered it */
byte ran[NE];                   /* runs of each callback / handler */
bit  regd[NE];                  /* its registration call has happened */
bit  rwp[NE];                   /* registered while pending (stored in the list) */
bit  ronc[NE];                  /* registered on a completed future (run or handed out by its registrant, or late) */
bit  hstored[NE];               /* handler stored, or run at once because a request was made */
bit  gone[NE];                  /* removed (taken back, or withdrawn before registering) */
bit  askd[NE];                  /* its ask is counted and not taken back */
bit  left[NE];                  /* it left asking (get(onTaskCancellation: .leave)) while pending: a standing ask */
bit  released[NE];              /* released by abandon: can never run */
bit  requested;                 /* a request was made while pending (the handlers were taken) */
bit  wakesDone;                 /* the completer woke its waiters */
byte nret;                      /* registration calls of queue callbacks returned so far */
byte startAt[NE];               /* nret when its registration took the lock */
byte retAt[NE];                 /* nret when its registration returned (255: not yet) */
byte lastInline = 255;          /* registration order of the completion's immediate callbacks */
byte seq;                       /* registration order counter */
byte ord[NE];
byte ndone;                     /* threads that finished their script */

/* ---- helpers ---- */

inline lock(t) { atomic { lk == 0 -> lk = t + 1 } }
inline unlock() { lk = 0 }

/* Live consumers of the pending list (CallbackList.liveConsumerCount). */
inline countLive(n) {
    n = 0;
    for (i : 0 .. NE - 1) {
        if
        :: inList[i] && ISCONSUMER(i) -> n++
        :: else -> skip
        fi
    }
}

/* G8: `all`: every consumer registered while pending asked (and is still registered) or was taken back;
 * `some`: at least one consumer asked and is still registered, or left asking (a leave stands). */
inline everyoneAsked(all, some) {
    all = 1; some = 0;
    for (i : 0 .. NE - 1) {
        if
        :: rwp[i] && ISCONSUMER(i) && !gone[i] && !askd[i] -> all = 0
        :: else -> skip
        fi;
        if
        :: ISCONSUMER(i) && (askd[i] && !gone[i] || left[i]) -> some = 1
        :: else -> skip
        fi
    }
}

/* G8 "if", at the end of every critical section that asks, removes or leaves: when every consumer
 * asked or was taken back, and an ask stands (live, or a consumer left), the request was made. */
inline checkIf() {
    everyoneAsked(all, some);
    assert(!(all && some) || requested || (fl & F_COMPL))
}

/* fire (fireLocked): the request is made; the handlers are taken out of the list (run after unlocking).
 * G8 "only when" for a request made by consumers. */
inline fire(byConsumer) {
    if
    :: byConsumer -> everyoneAsked(all, some); assert(all && some)
    :: else -> skip
    fi;
    fl = fl | F_REQ;
    requested = 1;
    nh = 0;
    for (i : 0 .. llen - 1) {
        if
        :: kind[lst[i]] == K_HANDLER && inList[lst[i]] ->
            h[nh] = lst[i]; nh++; inList[lst[i]] = 0; codeLen--
        :: else -> skip
        fi
    }
}

/* Runs the handlers taken by fire (or one registered after it), in registration order, through the
 * trampoline (runCancellationHandlers). */
inline runHandlers() {
    atomic {
        for (i : 0 .. nh - 1) {
            assert(ran[h[i]] == 0);                        /* G8: a handler runs once */
            assert(i == 0 || ord[h[i]] > ord[h[i - 1]]);   /* in registration order */
            ran[h[i]]++
        }
        for (i : 0 .. NE - 1) { h[i] = 0 };
        nh = 0; i = 0
    }
}

/* A consumer's ask is counted (request(asConsumer: true) past its early exits). Sets `need` when a tally
 * must be allocated first, outside the lock. */
inline countAsk(e) {
    if
    :: fl & F_TALLIED ->
        ta++; askd[e] = 1; stepped = 1;
        if
        :: ta >= tc -> fire(1)
        :: else -> skip
        fi
    :: else ->
        countLive(n);
        if
        :: n > 1 && !spare -> need = 1
        :: n > 1 && spare ->
            tc = n; ta = 1; fl = fl | F_TALLIED; codeLen++; askd[e] = 1; stepped = 1; spare = 0
        :: else -> askd[e] = 1; stepped = 1; fire(1)
        fi
    fi
}

/* consumerRemovedLocked(asked:): a registered consumer is taken back without leaving: it no longer counts,
 * nor does its ask. Fires when every consumer left has asked and an ask stands. Untallied, nobody has
 * asked: nothing to decide. Under the lock, pending, not requested. */
inline consumerRemoved(asked) {
    if
    :: fl & F_TALLIED ->
        tc--;
#if !defined(MUT_REMOVE_KEEPS_ASK) && !defined(MUT_ANON_ASK)
        if
        :: asked -> ta--
        :: else -> skip
        fi;
#endif
#ifndef MUT_NO_FIRE_ON_REMOVE
        if
        :: ta > 0 && ta >= tc -> fire(1)
        :: else -> skip
        fi
#else
        skip
#endif
    :: else -> skip
    fi
}

/* consumerLeavesLocked(registered:asked:_:): a consumer leaves asking and keeps counting as a consumer
 * that asked (`registered`: it is counted already; `asked`: its ask is). Untallied, nobody has asked: fires
 * if no other consumer waits, else puts a tally (others + 1, 1), which `spare` must hold
 * (leaveNeedsTallyLocked). Under the lock, pending, not requested. */
inline consumerLeaves(registered, asked) {
#if defined(MUT_LEAVE_UNCOUNTS)
    /* the old rule: the leave is counted off like a removal, and asks only at the moment it happens */
    if
    :: fl & F_TALLIED ->
        if
        :: registered -> tc--
        :: else -> skip
        fi;
        if
        :: asked -> ta--
        :: else -> skip
        fi;
        if
        :: ta >= tc -> fire(1)
        :: else -> skip
        fi
    :: else ->
        countLive(n);
        if
        :: n == 0 -> fire(1)
        :: else -> skip
        fi
    fi
#else
    if
    :: fl & F_TALLIED ->
        if
        :: !registered -> tc++
        :: else -> skip
        fi;
#ifndef MUT_LEAVE_ASK_LOST
        if
        :: !asked -> ta++
        :: else -> skip
        fi;
#endif
        if
        :: ta >= tc -> fire(1)
        :: else -> skip
        fi
    :: else ->
        countLive(n);
        if
        :: n == 0 -> fire(1)
        :: else ->
            assert(spare);          /* the code's precondition: a leave that needs a tally has one */
            spare = 0; tc = n + 1; ta = 1; fl = fl | F_TALLIED; codeLen++
        fi
    fi
#endif
}

/* Checks made whenever a callback runs or is handed out. `by`: the running thread, or QUEUE. */
inline runChecks(e, by) {
    assert(ran[e] == 0);                                   /* G2: once */
    assert(phase[e] != P_GONE && !released[e]);            /* G2: never once removed or released */
    assert(by == QUEUE || by == completer || owner[e] == by);  /* G4: a registrant runs only its own */
    if
    :: rwp[e] && (kind[e] == K_INLINE || kind[e] == K_SCHED) -> assert(wakesDone)  /* G3: waiters first */
    :: else -> skip
    fi
}

/* Hands a callback to the serial queue (ScheduledCallback.submit). */
inline handOut(e) {
    assert(t == completer || owner[e] == t);               /* G4 */
    sq!e;
#ifdef MUT_HANDOUT_WAITS
    (ran[e] > 0);
#endif
    skip
}

/* An immediate callback registered on a completed future, run through the trampoline
 * (Trampoline.run): nested while frames are left, else queued for the outermost frame. */
inline runLeaf(d) {
    if
    :: depth[t] >= MAXD -> tq[t]!d
    :: else -> depth[t]++; runChecks(d, t); ran[d]++; depth[t]--
    fi
}

/* An immediate callback's body. With a chain, the body registers its chained callback on the same
 * (completed) future, as a continuation does: whenComplete finds it completed and runs it now. */
inline runBody(e) {
    runChecks(e, t);
    ran[e]++;
    if
    :: chain[e] != NOCHAIN ->
        d = chain[e];
        atomic { lk == 0 -> regd[d] = 1; ronc[d] = 1; owner[d] = t; ord[d] = seq; seq++ };
        runLeaf(d)
    :: else -> skip
    fi
}

/* The outermost trampoline frame runs what deeper frames queued (Trampoline.enter, runQueued). */
inline drain() {
#ifndef MUT_TRAMP_NO_DRAIN
    do
    :: tq[t]?d -> runChecks(d, t); ran[d]++
    :: empty(tq[t]) -> break
    od
#else
    skip
#endif
}

/* ---- operations ---- */

/* whenComplete, onCompletionWakeUp, onCompletionObserved, addRemovable, onCancellationRequested.
 * addRemovable of an entry that left before it was registered: while its leave needs a tally and none is
 * at hand (leaveNeedsTallyLocked), it unlocks, allocates one, and looks again. */
inline register(e) {
    do
    :: atomic {
        lk == 0 -> lk = t + 1;
        need = 0;
#ifndef MUT_WITHDRAWN_LEAVE_NO_TALLY
        if
        :: rmv[e] && phase[e] == P_WDL && !spare && !(fl & (F_COMPL | F_REQ | F_TALLIED)) ->
            countLive(n);
            if
            :: n > 0 -> need = 1; n = 0; unlock()
            :: else -> skip
            fi
        :: else -> skip
        fi;
#endif
        if
        :: need -> skip
        :: else ->
        regd[e] = 1; owner[e] = t;
        if
        :: kind[e] == K_SCHED -> startAt[e] = nret
        :: else -> skip
        fi;
        if
        :: kind[e] == K_HANDLER ->
            if
            :: fl & F_COMPL -> skip                                            /* dropped */
            :: !(fl & F_COMPL) && (fl & F_REQ) ->                              /* runs now */
                hstored[e] = 1; ord[e] = seq; seq++; h[0] = e; nh = 1; fl = fl | F_ACC
            :: else ->
                hstored[e] = 1; ord[e] = seq; seq++;
                lst[llen] = e; llen++; codeLen++; inList[e] = 1; fl = fl | F_ACC
            fi
        :: kind[e] != K_HANDLER && rmv[e] && phase[e] == P_WD -> skip        /* withdrawn: not registered */
        :: kind[e] != K_HANDLER && rmv[e] && phase[e] == P_WDL ->
            /* withdrawn leaving: registering counts its leave, as a consumer that was not counted yet */
            if
            :: !(fl & (F_COMPL | F_REQ)) && ISCONSUMER(e) ->
                left[e] = 1;                    /* ghost: it left asking */
#ifndef MUT_WITHDRAWN_LEAVE_LOST
                consumerLeaves(0, 0);
#endif
                checkIf()
            :: else -> skip
            fi
        :: kind[e] != K_HANDLER && !(rmv[e] && phase[e] >= P_WD) ->
            ord[e] = seq; seq++;
            if
            :: !(fl & F_COMPL) ->
                lst[llen] = e; llen++; codeLen++; inList[e] = 1; rwp[e] = 1;
                if
                :: rmv[e] -> phase[e] = P_LIVE
                :: else -> skip
                fi;
                if
#ifndef MUT_OBSERVER_COUNTS
                :: (fl & F_TALLIED) && ISCONSUMER(e) -> tc++
#else
                :: (fl & F_TALLIED) -> tc++
#endif
                :: else -> skip
                fi
            :: (fl & F_COMPL) && (fl & F_HAND) && kind[e] == K_SCHED ->
                /* queued behind the hand-out in progress (completedWithLate) */
                ronc[e] = 1;
#ifndef MUT_SKIP_LATE
                late[latelen] = e; latelen++;
                if
                :: latelen == 1 -> runNow = 2      /* the words move to the late list: in steps, below */
                :: else -> skip
                fi
#else
                runNow = 1
#endif
            :: else -> ronc[e] = 1; runNow = 1
            fi
        fi;
        if
#ifndef MUT_RUN_UNDER_LOCK
        :: runNow != 2 -> unlock()
#else
        :: runNow == 0 -> unlock()
#endif
        :: else -> skip
        fi
        fi;
        if
        :: need -> spare = 1      /* a tally is allocated outside the lock; look again */
        :: else -> break          /* leaves the loop as the registration's one step ends */
        fi
    }
    od;
    if
    :: runNow == 2 ->
        /* putState(.completedWithLate): the words, then the tag bits, still under the lock */
        w0 = W_LATE;
        w1 = W_LATE;
        atomic { fl = fl | T_LATE; unlock(); runNow = 0 }
    :: else -> skip
    fi;
#ifdef MUT_REGISTRANT_TAKES_LATE
    /* a registrant that finds a hand-out in progress hands the late list out itself */
    if
    :: ronc[e] && kind[e] == K_SCHED ->
        atomic { lk == 0 ->
            for (i : 0 .. latelen - 1) { tl[i] = late[i] }; tll = latelen; latelen = 0
        };
        for (i : 0 .. tll - 1) { handOut(tl[i]) };
        tll = 0
    :: else -> skip
    fi;
#endif
    atomic {
        if
        :: runNow == 1 && kind[e] == K_SCHED -> handOut(e)
        :: runNow == 1 && (kind[e] == K_WAKE || kind[e] == K_OBS) -> runChecks(e, t); ran[e]++
        :: runNow == 1 && kind[e] == K_INLINE ->
            depth[t]++;
            runBody(e);
            if
            :: depth[t] == 1 -> drain()
            :: else -> skip
            fi;
            depth[t]--
        :: else -> skip
        fi
    }
#ifdef MUT_RUN_UNDER_LOCK
    if
    :: runNow == 1 -> unlock()
    :: else -> skip
    fi;
#endif
    runHandlers();
    atomic {
        if
        :: kind[e] == K_SCHED -> retAt[e] = nret; nret++
        :: else -> skip
        fi
    }
}

/* consumerRequestsCancellation (plain) and consumerAsks(through:) (removable): request(asConsumer: true) */
inline ask(e) {
    if
    :: !rmv[e] -> regd[e]   /* a plain consumer asks after its registration (its forwarding is linked then) */
    :: else -> skip
    fi;
    need = 1;
    do
    :: need ->
        need = 0; stepped = 0;
        atomic { lk == 0 ->
            if
            :: fl & (F_REQ | F_COMPL) -> skip
#ifdef MUT_ANON_ASK
            :: else -> countAsk(e)      /* counted whatever the registration's phase */
#else
            :: !(fl & (F_REQ | F_COMPL)) && !rmv[e] -> countAsk(e)
            :: !(fl & (F_REQ | F_COMPL)) && rmv[e] && phase[e] == P_LIVE ->
                countAsk(e);
                if
                :: stepped -> phase[e] = P_ASKED
                :: else -> skip
                fi
#ifdef MUT_ASK_AFTER_REMOVE
            :: !(fl & (F_REQ | F_COMPL)) && rmv[e] && phase[e] == P_GONE -> countAsk(e)
#endif
#ifdef MUT_ASK_TWICE
            :: !(fl & (F_REQ | F_COMPL)) && rmv[e] && phase[e] == P_ASKED -> countAsk(e)
#endif
            :: else -> skip
#endif
            fi;
            if
            :: need -> skip
            :: else -> checkIf()
            fi
        };
        if
        :: need -> spare = 1      /* a tally is allocated outside the lock; look again */
        :: else -> skip
        fi
    :: else -> break
    od;
    runHandlers()
}

/* removeEntry(_:leaving:). A leave allocates its tally before locking (`spare`). */
inline remove(e, leaving) {
    atomic { lk == 0 ->
        spare = leaving;
        if
        :: phase[e] == P_NEW ->                      /* not registered yet (completed or not): withdrawn */
            gone[e] = 1;
#ifndef MUT_EARLY_REMOVE_COUNTS
            if
            :: leaving -> phase[e] = P_WDL
            :: else -> phase[e] = P_WD
            fi
#else
            /* counted off as if it had been registered */
            phase[e] = P_WD;
            if
            :: !(fl & F_REQ) && (fl & F_TALLIED) ->
                tc--;
                if
                :: ta > 0 && ta >= tc -> fire(1)
                :: else -> skip
                fi
            :: else -> skip
            fi
#endif
        :: fl & F_COMPL -> skip                     /* nothing is stored any more */
        :: !(fl & F_COMPL) && (phase[e] == P_LIVE || phase[e] == P_ASKED) ->
            wasAsked = (phase[e] == P_ASKED);
            phase[e] = P_GONE; gone[e] = 1;
            if
            :: inList[e] -> inList[e] = 0;
                if
                :: codeLen == 1 -> codeLen = 0       /* the list was this one entry: emptied */
                :: else -> tomb[e] = 1               /* a tombstone stays */
                fi
            :: else -> skip
            fi;
            if
            :: !(fl & F_REQ) && ISCONSUMER(e) ->
                left[e] = leaving;                   /* ghost: it left asking */
                if
#ifndef MUT_LEAVE_NOT_COUNTED
                :: leaving -> consumerLeaves(1, wasAsked)
                :: else -> consumerRemoved(wasAsked)
#else
                :: true -> consumerRemoved(wasAsked)     /* the leave is taken for a plain removal */
#endif
                fi
            :: else -> skip
            fi;
            checkIf()
        :: else -> skip
        fi
    };
    runHandlers()
}

/* requestCancellation (explicit) */
inline request() {
    atomic { lk == 0 ->
        if
        :: !(fl & (F_REQ | F_COMPL)) -> fire(0)
        :: else -> skip
        fi
    };
    runHandlers()
}

/* abandon(): the promise was dropped and the future stays pending. Its consumers are released but keep
 * counting as consumers that have not asked; its handlers stay. */
inline abandon() {
    atomic { lk == 0 ->
        if
        :: !(fl & F_COMPL) ->
#ifndef MUT_ABANDON_FORGETS
            if
            :: !(fl & F_TALLIED) ->
                countLive(n);
                if
                :: n > 0 -> tc = n; ta = 0; fl = fl | F_TALLIED
                :: else -> skip
                fi
            :: else -> skip
            fi;
#endif
            codeLen = 0;
            for (i : 0 .. llen - 1) {
                if
#ifndef MUT_ABANDON_DROPS_HANDLERS
                :: kind[lst[i]] == K_HANDLER && inList[lst[i]] -> codeLen++
                :: kind[lst[i]] != K_HANDLER && (inList[lst[i]] || tomb[lst[i]]) ->
#else
                :: inList[lst[i]] || tomb[lst[i]] ->
#endif
                    inList[lst[i]] = 0; tomb[lst[i]] = 0; released[lst[i]] = 1
                :: else -> skip
                fi
            }
            if
            :: fl & F_TALLIED -> codeLen++
            :: else -> skip
            fi
        :: else -> skip
        fi
    }
}

/* finishHandingOut: hands out what registered late meanwhile, until nothing did; then clears handingOut
 * (the future is settled) */
inline finishHandingOut() {
    do
    :: atomic { lk == 0 && latelen > 0 -> lk = t + 1;
            for (i : 0 .. latelen - 1) { tl[i] = late[i]; late[i] = 0 }; tll = latelen; latelen = 0; i = 0 };
        /* takeLate: putState(.completed) */
        w0 = W_VAL;
        w1 = W_VAL;
        atomic { fl = fl & ~T_LATE; unlock() };
        i = 0;
        do
        :: atomic { i < tll -> handOut(tl[i]); tl[i] = 0; i++ }
        :: atomic { i >= tll -> i = 0; tll = 0; break }
        od
    :: atomic { lk == 0 && latelen == 0 -> fl = fl & ~F_HAND; break }
#ifdef MUT_DROP_LATE
    :: atomic { lk == 0 && latelen > 0 -> latelen = 0; fl = fl & ~F_HAND; break }
#endif
    od
}

/* runCompletion, in one trampoline frame: wake-ups, hand-outs, immediate callbacks, then what the
 * trampoline queued. Each callback it runs or hands out is one step. */
inline runCompletion() {
    depth[t]++;
#ifndef MUT_WAKE_LAST
    atomic {
        for (j : 0 .. clen - 1) {
            if
            :: (kind[cl[j]] == K_WAKE || kind[cl[j]] == K_OBS) && LIVE_ENTRY(cl[j]) -> runChecks(cl[j], t); ran[cl[j]]++
            :: else -> skip
            fi
        }
        wakesDone = 1; j = 0
    }
#endif
    if
    :: hands ->
        j = 0;
        do
        :: atomic { j < clen && kind[cl[j]] == K_SCHED && LIVE_ENTRY(cl[j]) -> handOut(cl[j]); j++ }
        :: atomic { j < clen && !(kind[cl[j]] == K_SCHED && LIVE_ENTRY(cl[j])) -> j++ }
        :: atomic { j >= clen -> j = 0; break }
        od;
        finishHandingOut()
    :: else -> skip
    fi;
    j = 0;
    do
    :: atomic { j < clen && kind[cl[j]] == K_INLINE && LIVE_ENTRY(cl[j]) ->
            assert(lastInline == 255 || ord[cl[j]] > lastInline);   /* G3: immediate ones in order */
            lastInline = ord[cl[j]];
            runBody(cl[j]); j++ }
    :: atomic { j < clen && !(kind[cl[j]] == K_INLINE && LIVE_ENTRY(cl[j])) -> j++ }
    :: atomic { j >= clen -> j = 0; break }
    od;
#ifdef MUT_WAKE_LAST
    atomic {
        for (j : 0 .. clen - 1) {
            if
            :: (kind[cl[j]] == K_WAKE || kind[cl[j]] == K_OBS) && LIVE_ENTRY(cl[j]) -> runChecks(cl[j], t); ran[cl[j]]++
            :: else -> skip
            fi
        }
        wakesDone = 1; j = 0
    }
#endif
    if
    :: depth[t] == 1 -> drain()
    :: else -> skip
    fi;
    depth[t]--
}

/* complete(_:): takes the list and publishes the result under the lock, then runs the completion */
inline complete() {
    atomic {
        lk == 0 -> lk = t + 1;
        if
#ifndef MUT_COMPLETE_TWICE
        :: fl & F_COMPL -> ok = 0
#endif
        :: else ->
            ok = 1; ncompl++; completer = t;
            assert(ncompl <= 1);                                   /* G1 */
            /* the list is taken: live entries and tombstones (handlers are dropped) */
            clen = 0;
            for (i : 0 .. llen - 1) {
                if
                :: kind[lst[i]] != K_HANDLER && (inList[lst[i]] || tomb[lst[i]]) ->
                    cl[clen] = lst[i]; clen++
                :: else -> skip
                fi;
                inList[lst[i]] = 0; tomb[lst[i]] = 0
            }
            /* CallbackList.mayHandOut: more than one entry, or one for another context or removable */
            hands = (codeLen > 1 || (codeLen == 1 && clen == 1 && (kind[cl[0]] == K_SCHED || rmv[cl[0]])));
            llen = 0; codeLen = 0;
#ifdef MUT_PUBLISH_BEFORE_PAYLOAD
            fl = fl | T_COMPL | F_COMPL | (hands -> F_HAND : 0);
#endif
        fi
    }
    if
    :: ok ->
        /* putState(.completed): the words, then the tag bits; publishCompletion: completed (and
         * handingOut) in one releasing store */
        w0 = W_VAL;
        w1 = W_VAL;
        atomic { fl = fl | T_COMPL | F_COMPL | (hands -> F_HAND : 0); unlock() };
        runCompletion()
    :: else ->
#ifndef MUT_LOCK_LEAK
        unlock()
#else
        skip
#endif
    fi
}

/* Future.result / ifCompleted: the settled read without the lock, else a read under the lock */
inline read() {
    f = fl;                                                       /* one acquiring load */
    if
#ifndef MUT_READ_IGNORES_HANDOUT
    :: (f & SETTLED_MASK) == (F_COMPL | T_COMPL) ->
#else
    :: (f & (F_COMPL | T_COMPL | T_LATE)) == (F_COMPL | T_COMPL) ->
#endif
        r0 = w0;
        atomic { r1 = w1; assert(r0 == W_VAL && r1 == W_VAL); r0 = 0; r1 = 0 }   /* RD: published and whole */
    :: else ->
        atomic { lk == 0 ->
            assert(!(fl & F_COMPL) || (w0 == w1 && w0 != W_PEND))   /* RD: completed has its result */
        }
    fi;
    f = 0
}

/* ---- processes ---- */

proctype thread(byte t) {
    byte pc, o, e, d, i, j, n, nh, f, r0, r1, ok, hands, tll, runNow;
    byte h[NE]; byte tl[NE];
    bit need, spare, stepped, all, some, wasAsked;
    pc = 0;
    do
    :: atomic { pc < NOPS -> e = arg[t * NOPS + pc]; o = op[t * NOPS + pc] };
        if
        :: o == O_REG -> register(e)
        :: o == O_ASK -> ask(e)
        :: o == O_REM -> remove(e, 0)
        :: o == O_LEAVE -> remove(e, 1)
        :: o == O_REQ -> request()
        :: o == O_COMPLETE -> complete()
        :: o == O_ABANDON -> abandon()
        :: o == O_READ -> read()
        :: o == O_NONE -> skip
        fi;
        atomic {
            assert(depth[t] == 0 && len(tq[t]) == 0);   /* the trampoline ran what it queued */
            o = 0; e = 0; d = 0; i = 0; j = 0; n = 0; ok = 0; hands = 0; runNow = 0; spare = 0;
            all = 0; some = 0; wasAsked = 0; stepped = 0; pc++
        }
    :: atomic { pc >= NOPS -> ndone++; pc = 0; break }
    od
}

/* The serial queue: runs what it was handed, in order. It may be held back until every thread has
 * finished (a busy or suspended queue) when the configuration defines HOLD_QUEUE: nothing may wait for
 * it meanwhile (G4). */
proctype queue() {
    byte e, f;
#ifdef HOLD_QUEUE
    bit held;
    if
    :: held = 0
    :: held = 1      /* held back: it runs nothing before every thread has finished */
    fi;
    (!held || ndone == NT);
#endif
    do
    :: atomic { sq?e ->
        runChecks(e, QUEUE);
        /* G3: every queue callback whose registration returned before this one's began ran first */
        for (f : 0 .. NE - 1) {
            assert(!(kind[f] == K_SCHED && f != e && !gone[f] && (rwp[f] || ronc[f]) && retAt[f] < startAt[e])
                   || ran[f] > 0)
        }
        ran[e]++;
        e = 0; f = 0 }
    :: ndone == NT && len(sq) == 0 -> break
    od
}

init {
    byte e, i;
    bit all, some;
    atomic {
        for (e : 0 .. NE - 1) { chain[e] = NOCHAIN; retAt[e] = 255; ord[e] = 255 };
        setup();
        w0 = W_PEND; w1 = W_PEND;
        for (e : 0 .. NT - 1) { run thread(e) };
        run queue();
        e = 0
    }
    _nr_pr == 1;
    /* the end: every callback and handler ran exactly as often as it must */
    for (e : 0 .. NE - 1) {
        if
        :: kind[e] == K_HANDLER ->
            assert(ran[e] == (hstored[e] && requested -> 1 : 0))                 /* G8: handlers */
        :: kind[e] != K_HANDLER && (rwp[e] && !gone[e] && !released[e] && ncompl > 0 || ronc[e]) ->
            assert(ran[e] == 1)                                                   /* G2 */
        :: else ->
            assert(ran[e] == 0)                                                   /* G2 */
        fi
    }
    everyoneAsked(all, some);
    assert(!(all && some) || requested || ncompl > 0)                           /* G8: if */
}
