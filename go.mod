module github.com/agentmem/agentmem

go 1.26.8

require github.com/aws/aws-lambda-go v1.55.1

require github.com/stretchr/testify v1.11.1 // indirect
