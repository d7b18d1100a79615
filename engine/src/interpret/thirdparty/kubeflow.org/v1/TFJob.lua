-- Kubeflow TFJob (kubeflow.org/v1). Only dependencies: the replica shape is a
-- componentResource matter, not a replica count.
local kube = require("kube")

-- The roles whose pod templates are read, in this order.
local ROLES = { "PS", "Worker", "Chief", "Master", "Evaluator" }

-- Pod template dependencies of each role present, concatenated role by role (duplicates across
-- roles are kept; Karmada de-duplicates afterwards).
function GetDependencies(desiredObj)
  local refs = {}
  local spec = desiredObj.spec
  if spec == nil or spec.tfReplicaSpecs == nil then
    return refs
  end
  for _, role in ipairs(ROLES) do
    local replicaSpec = spec.tfReplicaSpecs[role]
    if replicaSpec ~= nil and replicaSpec.template ~= nil then
      local found = kube.getPodDependencies(replicaSpec.template, desiredObj.metadata.namespace)
      if found ~= nil then
        for _, ref in ipairs(found) do
          refs[#refs + 1] = ref
        end
      end
    end
  end
  return refs
end
