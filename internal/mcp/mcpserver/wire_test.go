package mcpserver

import (
	"reflect"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

// TestWireTypesCarryEveryField: each wire conversion, given a core value
// with every field set, fills every field of its wire type, so a field
// added to a wire type is not silently left out of the payload.
func TestWireTypesCarryEveryField(t *testing.T) {
	var change commit.Change
	fill(reflect.ValueOf(&change).Elem())
	var version commit.Version
	fill(reflect.ValueOf(&version).Elem())
	var label graph.LabelSpec
	fill(reflect.ValueOf(&label).Elem())
	var edge graph.EdgeSpec
	fill(reflect.ValueOf(&edge).Elem())
	var moniker graph.Moniker
	fill(reflect.ValueOf(&moniker).Elem())
	for name, wire := range map[string]any{
		"changeWire":  *changeOf(&change),
		"versionWire": versionOf(version),
		"labelWire":   labelOf(label),
		"edgeWire":    edgeOf(edge),
		"monikerWire": monikerOf(moniker),
	} {
		v := reflect.ValueOf(wire)
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				t.Errorf("%s.%s is not filled from the core value", name, v.Type().Field(i).Name)
			}
		}
	}
	if wireList[graph.Moniker](nil, monikerOf) != nil {
		t.Error("a nil list must stay nil")
	}
}

// fill sets every exported field of v to a non-zero value.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Int:
		v.SetInt(1)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}
