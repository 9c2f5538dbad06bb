// This folder holds the npm-installed AWS CDK CLI, whose package ships Go
// templates. Being a module of its own keeps it out of the repository's
// `go vet ./...` and `go test ./...`.
module github.com/agentmem/agentmem/tools/cdk

go 1.26
