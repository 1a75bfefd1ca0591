package prune

// Lookup returns the value at p inside obj, and whether it exists.
func (p Path) Lookup(obj any) (any, bool) {
	cur := obj
	for _, e := range p.Elements() {
		if e.kind == indexElem {
			l, ok := cur.([]any)
			if !ok || e.index < 0 || e.index >= len(l) {
				return nil, false
			}
			cur = l[e.index]
			continue
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok := m[e.name]
		if !ok {
			return nil, false
		}
		cur = v
	}
	return cur, true
}
