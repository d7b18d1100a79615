-- Flux GitRepository (source.toolkit.fluxcd.io/v1).

-- Names kept once each, in the order first seen. A nil name is a Lua error here ("table index
-- is nil"), exactly as in Karmada's built-in script, which also uses the name as a table key.
local function orderedSet()
  return { list = {}, seen = {} }
end

local function remember(set, name)
  if not set.seen[name] then
    set.seen[name] = true
    set.list[#set.list + 1] = name
  end
end

-- A local object reference ({name = ...}) that is set. Only the empty string counts as unset:
-- a reference without a name passes and then fails in remember.
local function isSet(ref)
  return ref ~= nil and ref.name ~= ''
end

-- Secrets: spec.secretRef (Git credentials), then spec.verify.secretRef (signature keys), in
-- the repository's namespace.
function GetDependencies(desiredObj)
  local spec = desiredObj.spec
  local secrets = orderedSet()
  if isSet(spec.secretRef) then
    remember(secrets, spec.secretRef.name)
  end
  if spec.verify ~= nil and isSet(spec.verify.secretRef) then
    remember(secrets, spec.verify.secretRef.name)
  end

  local refs = {}
  for _, name in ipairs(secrets.list) do
    refs[#refs + 1] = {
      apiVersion = 'v1',
      kind = 'Secret',
      name = name,
      namespace = desiredObj.metadata.namespace,
    }
  end
  return refs
end
