package crdfake

import (
	"reflect"
	"unsafe"

	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// builderField reads an unexported field of a fake.ClientBuilder: what
// the builder was given before Builder (interceptor funcs, REST mapper,
// scheme, WithReturnManagedFields, the objects), which controller-runtime v0.25.2
// keeps without getters. Composing with them instead of replacing them
// needs them; TestBuilderFields fails when a controller-runtime upgrade
// renames one. ok is false when the field is missing or of another type.
func builderField[T any](b *fake.ClientBuilder, name string) (value T, ok bool) {
	if b == nil {
		return value, false
	}
	return unexportedField[T](b, name)
}

// unexportedField reads a field of the struct ptr points to.
func unexportedField[T any](ptr any, name string) (value T, ok bool) {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return value, false
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return value, false
	}
	value, _ = reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(T)
	return value, true
}

// unexportedFieldAddr is the address of a field of the struct ptr points
// to (a mutex to lock), nil when it is missing or of another type.
func unexportedFieldAddr[T any](ptr any, name string) *T {
	v := reflect.ValueOf(ptr)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName(name)
	if !f.IsValid() || f.Type() != reflect.TypeFor[T]() {
		return nil
	}
	return (*T)(unsafe.Pointer(f.UnsafeAddr()))
}
