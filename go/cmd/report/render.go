package main

import (
	_ "embed"
	"html/template"
	"io"
)

//go:embed page.html.tmpl
var pageTemplate string

var tmpl = template.Must(template.New("page").Parse(pageTemplate))

// render writes the page; a chart that failed to draw fails it.
func render(w io.Writer, p *page) error {
	if p.chartErr != nil {
		return p.chartErr
	}
	return tmpl.Execute(w, p)
}
