-- 0006: an outbox item that starts a side's clock (a reply showing the position a side must answer)
-- carries the game's key for that clock (judge.Message.Clock): once it is posted, the daemon
-- reports its posting time to the game, in the same transaction that marks it posted.
ALTER TABLE outbox ADD COLUMN clock TEXT NOT NULL DEFAULT '';
