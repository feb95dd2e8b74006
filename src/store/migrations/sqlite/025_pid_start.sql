-- 025 pid start: a pid the kernel freed goes to the next process, so a row that names a process
-- to signal or watch later (a run, a subagent, a background command's keeper) keeps when that
-- process started (clock ticks since boot, /proc/PID/stat), and only that process is signalled;
-- and the PID namespace its pid is a pid of (`pid:[4026531836]`): a goclaw inside a command's
-- namespace sees other pids, so it judges no process of a row written outside, nor the reverse.
-- NULL in rows written before: those are judged by their pid alone, as they were.
ALTER TABLE runs ADD COLUMN pid_start INTEGER;
ALTER TABLE runs ADD COLUMN pid_ns TEXT;
ALTER TABLE subagents ADD COLUMN pid_start INTEGER;
ALTER TABLE subagents ADD COLUMN pid_ns TEXT;
ALTER TABLE processes ADD COLUMN keeper_start INTEGER;
ALTER TABLE processes ADD COLUMN keeper_ns TEXT;
