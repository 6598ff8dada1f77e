package budgetlru

import "testing"

// The least recently used go first once the budget is exceeded; a replaced value's cost is taken
// off; a value over the whole budget is not kept; removals and purges keep the size exact.
func TestCacheKeepsWithinItsBudget(t *testing.T) {
	c := New[string, int](250, func(v int) int64 { return int64(v) })
	for _, k := range []string{"1", "2", "3", "4", "5"} {
		c.Add(k, 100)
	}
	if _, ok := c.Get("3"); ok || c.Size() != 200 || c.Len() != 2 {
		t.Errorf("after five of 100 in a budget of 250: size %d, %d kept, the third kept %v; want the last two", c.Size(), c.Len(), ok)
	}
	c.Get("4") // 5 is now the least recently used
	c.Add("6", 100)
	if _, ok := c.Get("5"); ok {
		t.Errorf("the least recently used value survived an eviction")
	}
	c.Add("4", 50)
	if v, ok := c.Get("4"); !ok || v != 50 || c.Size() != 150 {
		t.Errorf("after replacing 100 by 50: %v %v, size %d; want 50 kept, size 150", v, ok, c.Size())
	}
	c.Add("big", 300)
	if _, ok := c.Get("big"); ok || c.Size() != 150 {
		t.Errorf("a value over the budget was kept (size %d)", c.Size())
	}
	c.Add("4", 300) // replaced by a value too big to keep: neither is kept
	if _, ok := c.Get("4"); ok || c.Size() != 100 {
		t.Errorf("after replacing by a value over the budget: kept %v, size %d; want gone, 100", ok, c.Size())
	}
	c.Remove("6")
	if c.Size() != 0 || c.Len() != 0 {
		t.Errorf("after removing the last: size %d, %d kept", c.Size(), c.Len())
	}
	c.Add("7", 0)
	c.Add("8", 10)
	c.Purge()
	if c.Size() != 0 || c.Len() != 0 {
		t.Errorf("after a purge: size %d, %d kept", c.Size(), c.Len())
	}
}

// NewLimited evicts the least recently used past its count as well as past its budget.
func TestLimitedCacheKeepsWithinItsCount(t *testing.T) {
	c := NewLimited[string, int](2, 1000, func(v int) int64 { return int64(v) })
	c.Add("1", 10)
	c.Add("2", 20)
	c.Get("1") // 2 is now the least recently used
	c.Add("3", 30)
	if _, ok := c.Get("2"); ok || c.Len() != 2 || c.Size() != 40 {
		t.Errorf("after three values in a count of 2: the least recently used kept %v, %d kept, size %d; want 2, 40", ok, c.Len(), c.Size())
	}
	c.Add("4", 990) // over the budget with 3 (but not with 1 and 3 gone): both go
	if c.Len() != 1 || c.Size() != 990 {
		t.Errorf("after a value that takes the budget: %d kept, size %d; want 1, 990", c.Len(), c.Size())
	}
}
