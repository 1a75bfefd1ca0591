package crdfake

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// TestBuilderFields fails when a controller-runtime upgrade renames or
// retypes a fake.ClientBuilder field Builder composes with.
func TestBuilderFields(t *testing.T) {
	s := runtime.NewScheme()
	m := meta.NewDefaultRESTMapper(nil)
	b := fake.NewClientBuilder().WithScheme(s).WithRESTMapper(m).WithInterceptorFuncs(interceptor.Funcs{}).WithReturnManagedFields()
	if got, ok := builderField[*runtime.Scheme](b, "scheme"); !ok || got != s {
		t.Error("scheme")
	}
	if got, ok := builderField[restMapperType](b, "restMapper"); !ok || got != m {
		t.Error("restMapper")
	}
	if got, ok := builderField[*interceptor.Funcs](b, "interceptorFuncs"); !ok || got == nil {
		t.Error("interceptorFuncs")
	}
	if got, ok := builderField[bool](b, "returnManagedFields"); !ok || !got {
		t.Error("returnManagedFields")
	}
	if _, ok := builderField[[]client.Object](b, "initObject"); !ok {
		t.Error("initObject")
	}
	if _, ok := builderField[[]runtime.Object](b, "initRuntimeObjects"); !ok {
		t.Error("initRuntimeObjects")
	}
	if _, ok := builderField[[]client.ObjectList](b, "initLists"); !ok {
		t.Error("initLists")
	}
	if _, ok := builderField[bool](b, "scheme"); ok {
		t.Error("a field of another type is read")
	}
}
