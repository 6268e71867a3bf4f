-- 0004: RESERVED for shard17's lease tables (issue 17).  This placeholder only keeps the numbers
-- contiguous (the runner refuses gaps) until their 0004 lands; the lead deletes this file when
-- merging it.  It creates nothing.
SELECT 1;
