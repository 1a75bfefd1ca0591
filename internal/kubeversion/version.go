// Package kubeversion orders version names by the priority Kubernetes
// gives them in discovery.
package kubeversion

import (
	"sort"
	"strconv"
	"strings"
)

// Release levels of a Kubernetes-style version name, lowest priority first.
const (
	levelAlpha = iota
	levelBeta
	levelGA
)

// kubeVersion splits a Kubernetes-style version name (v<major>,
// v<major>alpha<minor> or v<major>beta<minor>, ASCII digits only) into its
// parts. ok is false for any other name.
func kubeVersion(v string) (major, level, minor int, ok bool) {
	rest, found := strings.CutPrefix(v, "v")
	if !found {
		return 0, 0, 0, false
	}
	n := leadingDigits(rest)
	if n == 0 {
		return 0, 0, 0, false
	}
	major, err := strconv.Atoi(rest[:n])
	if err != nil {
		return 0, 0, 0, false
	}
	rest = rest[n:]
	if rest == "" {
		return major, levelGA, 0, true
	}
	switch {
	case strings.HasPrefix(rest, "alpha"):
		level, rest = levelAlpha, rest[len("alpha"):]
	case strings.HasPrefix(rest, "beta"):
		level, rest = levelBeta, rest[len("beta"):]
	default:
		return 0, 0, 0, false
	}
	if n = leadingDigits(rest); n == 0 || n != len(rest) {
		return 0, 0, 0, false
	}
	if minor, err = strconv.Atoi(rest); err != nil {
		return 0, 0, 0, false
	}
	return major, level, minor, true
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Compare orders version names by the priority Kubernetes
// gives them (in discovery and when choosing a preferred version). It
// returns a positive number when a has the higher priority, a negative one
// when b has, and 0 when a == b or both have the same priority.
//
// GA versions come first, then beta, then alpha, each by descending major
// and then minor number; names that are not Kubernetes-style come last, in
// ascending lexical order:
//
//	v10 > v2 > v1 > v11beta2 > v10beta3 > v3beta1 > v12alpha1 > v11alpha2 > foo1 > foo10
func Compare(a, b string) int {
	if a == b {
		return 0
	}
	aMajor, aLevel, aMinor, aOK := kubeVersion(a)
	bMajor, bLevel, bMinor, bOK := kubeVersion(b)
	switch {
	case !aOK && !bOK:
		return strings.Compare(b, a)
	case !aOK:
		return -1
	case !bOK:
		return 1
	}
	if aLevel != bLevel {
		return aLevel - bLevel
	}
	if aMajor != bMajor {
		return cmpInt(aMajor, bMajor)
	}
	return cmpInt(aMinor, bMinor)
}

func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// Sort sorts version names in place, highest priority
// first (see Compare). The sort is stable.
func Sort(versions []string) {
	sort.SliceStable(versions, func(i, j int) bool {
		return Compare(versions[i], versions[j]) > 0
	})
}
