// The module file for building the plugin (and only the plugin) with a Go
// toolchain older than 1.21, which cannot read the root go.mod (a three-part
// go line, a tool line). The Makefile passes it with -modfile when the
// toolchain is older than 1.21; the root go.mod keeps its language version.
// The SDK version must match the root go.mod: every toolchain in the matrix
// measures the same SDK.
module cgocost

go 1.19

require github.com/falcosecurity/plugin-sdk-go v0.8.3
