// Command plugin-sample is a field-extraction plugin written the way real Go
// plugins for Falco are: with the plugin SDK for Go, built as a c-shared
// library, configured by a JSON document of its own. It is cgocost's
// stand-in for "your plugin" (docs/plugins.md, "Measuring your own
// plugin"): it exposes none of cgocost's probe fields, so everything
// cgocost says about it (the mode in effect above all) it must find out
// from outside, as it would for any plugin.
//
// Like many real plugins it turns the SDK's async extraction on in its own
// Init, from a configuration field whose default is true.
package main

import (
	"fmt"

	"cgocost/plugin-sample/sample"

	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/plugins"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/plugins/extractor"
	"github.com/falcosecurity/plugin-sdk-go/pkg/sdk/symbols/extract"
)

// spinNs is an injected slowdown, set only at link time
// (-ldflags "-X main.spinNs=N"): every extraction busy-waits N more
// nanoseconds. make builds build/sample-slow/libsample.so with it, the "head that
// regressed" of the plugin gate's test; a plain build has none.
var spinNs string

// Plugin is one instance of the sample extractor.
type Plugin struct {
	plugins.BasePlugin
	cfg  sample.Config
	spin int64
}

// Info describes the plugin to the SDK.
func (p *Plugin) Info() *plugins.Info {
	return &plugins.Info{
		ID:                  0,
		Name:                "sample",
		Description:         "a JSON-payload field extractor, the way real plugins are written",
		Contact:             "cgocost",
		Version:             "0.1.0",
		ExtractEventSources: []string{"sample"},
	}
}

// Init reads the configuration and sets the SDK's async switch from it, as
// real plugins do: the SDK starts the async worker after Init returns when
// the switch is on.
func (p *Plugin) Init(config string) error {
	cfg, err := sample.ParseConfig(config)
	if err != nil {
		return err
	}
	spin, err := sample.ParseSpin(spinNs)
	if err != nil {
		return fmt.Errorf("the build's spin: %w", err)
	}
	p.cfg, p.spin = cfg, spin
	extract.SetAsync(cfg.Async)
	return nil
}

// Fields declares the one field.
func (p *Plugin) Fields() []sdk.FieldEntry {
	return []sdk.FieldEntry{
		{Type: "string", Name: sample.FieldUser, Display: "User", Desc: "the \"user\" member of the event's JSON payload"},
	}
}

// Extract decodes the event's payload and returns its "user" member; a
// payload that is not such a document gives no value (not an error: a real
// plugin meets events it cannot read).
func (p *Plugin) Extract(req sdk.ExtractRequest, evt sdk.EventReader) error {
	sample.Spin(p.spin)
	if req.FieldID() != 0 {
		return fmt.Errorf("unknown field %d", req.FieldID())
	}
	if user, ok := sample.User(evt.Reader()); ok {
		req.SetValue(user)
	}
	return nil
}

func init() {
	plugins.SetFactory(func() plugins.Plugin {
		p := &Plugin{}
		extractor.Register(p)
		return p
	})
}

func main() {}
