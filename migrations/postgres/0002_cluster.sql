-- 0002: PLACEHOLDER for shard17's lease tables (issue 17), under the same file name as theirs so a
-- merge of both branches conflicts here instead of running two 0002 files: take shard17's version.
-- It only keeps the numbers contiguous (the runner refuses gaps) until theirs lands; it creates nothing.
SELECT 1;
