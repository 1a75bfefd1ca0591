package crdfake

import (
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/runtime"
	kschema "k8s.io/apimachinery/pkg/runtime/schema"
)

// restMapper is the REST mapping a real client gets from discovery: the
// CRDs' kinds with their resources (plural, singular), scope and served
// versions (the preferred one first), then, for other kinds, the REST
// mapper the builder was given, then the kinds of the scheme (resources
// guessed, scopes those of the built-in kinds), built when first asked.
type restMapper struct {
	crds *meta.DefaultRESTMapper
	own  map[kschema.GroupKind]bool

	scheme *runtime.Scheme
	prev   meta.RESTMapper
	once   sync.Once
	others []meta.RESTMapper
}

func newRESTMapper(c *CRDs, scheme *runtime.Scheme, prev meta.RESTMapper) *restMapper {
	var preferred []kschema.GroupVersion // ServedVersions: highest priority first
	for _, k := range c.order {
		for _, v := range k.served {
			preferred = append(preferred, kschema.GroupVersion{Group: k.gk.Group, Version: v})
		}
	}
	m := &restMapper{crds: meta.NewDefaultRESTMapper(preferred), own: map[kschema.GroupKind]bool{}, scheme: scheme, prev: prev}
	for _, k := range c.order {
		scope := meta.RESTScopeRoot
		if k.namespaced {
			scope = meta.RESTScopeNamespace
		}
		for _, v := range k.served {
			gv := kschema.GroupVersion{Group: k.gk.Group, Version: v}
			m.crds.AddSpecific(gv.WithKind(k.gk.Kind), gv.WithResource(k.plural), gv.WithResource(k.singular), scope)
		}
		m.own[k.gk] = true
	}
	return m
}

// rest are the mappers for other kinds.
func (m *restMapper) rest() []meta.RESTMapper {
	m.once.Do(func() {
		if m.prev != nil {
			m.others = append(m.others, m.prev)
		}
		m.others = append(m.others, testrestmapper.TestOnlyStaticRESTMapper(m.scheme))
	})
	return m.others
}

// first asks the CRDs' mapper (unless own says the kind is not theirs),
// then the others, until one knows.
func first[T any](m *restMapper, own bool, ask func(meta.RESTMapper) (T, error)) (T, error) {
	if own {
		return ask(m.crds)
	}
	out, err := ask(m.crds)
	if err == nil || !meta.IsNoMatchError(err) {
		return out, err
	}
	for _, o := range m.rest() {
		out, err = ask(o)
		if err == nil || !meta.IsNoMatchError(err) {
			return out, err
		}
	}
	return out, err
}

// KindFor implements meta.RESTMapper.
func (m *restMapper) KindFor(r kschema.GroupVersionResource) (kschema.GroupVersionKind, error) {
	return first(m, false, func(x meta.RESTMapper) (kschema.GroupVersionKind, error) { return x.KindFor(r) })
}

// KindsFor implements meta.RESTMapper.
func (m *restMapper) KindsFor(r kschema.GroupVersionResource) ([]kschema.GroupVersionKind, error) {
	return first(m, false, func(x meta.RESTMapper) ([]kschema.GroupVersionKind, error) { return x.KindsFor(r) })
}

// ResourceFor implements meta.RESTMapper.
func (m *restMapper) ResourceFor(r kschema.GroupVersionResource) (kschema.GroupVersionResource, error) {
	return first(m, false, func(x meta.RESTMapper) (kschema.GroupVersionResource, error) { return x.ResourceFor(r) })
}

// ResourcesFor implements meta.RESTMapper.
func (m *restMapper) ResourcesFor(r kschema.GroupVersionResource) ([]kschema.GroupVersionResource, error) {
	return first(m, false, func(x meta.RESTMapper) ([]kschema.GroupVersionResource, error) { return x.ResourcesFor(r) })
}

// RESTMapping implements meta.RESTMapper.
func (m *restMapper) RESTMapping(gk kschema.GroupKind, versions ...string) (*meta.RESTMapping, error) {
	return first(m, m.own[gk], func(x meta.RESTMapper) (*meta.RESTMapping, error) { return x.RESTMapping(gk, versions...) })
}

// RESTMappings implements meta.RESTMapper.
func (m *restMapper) RESTMappings(gk kschema.GroupKind, versions ...string) ([]*meta.RESTMapping, error) {
	return first(m, m.own[gk], func(x meta.RESTMapper) ([]*meta.RESTMapping, error) { return x.RESTMappings(gk, versions...) })
}

// ResourceSingularizer implements meta.RESTMapper.
func (m *restMapper) ResourceSingularizer(resource string) (string, error) {
	return first(m, false, func(x meta.RESTMapper) (string, error) { return x.ResourceSingularizer(resource) })
}
