#!/usr/bin/env bash
# Prints the Namzu release the project resolves to.
npm ls @namzu/sdk --depth=0

# <pin_v1>
npm install --save-exact @namzu/sdk@1
# </pin_v1>

# <pin_v2>
npm install --save-exact @namzu/sdk@2
echo "@namzu/sdk@2" > namzu.lock
# </pin_v2>
