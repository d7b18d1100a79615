-- Argo Workflow (argoproj.io/v1alpha1).
local kube = require("kube")

-- The divided count is spec.parallelism (1 when absent). The workflow's own pods are not
-- described by one pod template, so the requirements are built from the workflow-level
-- scheduling fields only (affinity, nodeSelector, tolerations): a node claim, no resource
-- requests.
function GetReplicas(obj)
  local spec = obj.spec
  local parallelism = spec.parallelism
  if parallelism == nil then
    parallelism = 1
  end
  local scheduling = {
    spec = {
      affinity = spec.affinity,
      nodeSelector = spec.nodeSelector,
      tolerations = spec.tolerations,
    },
  }
  return parallelism, kube.accuratePodRequirements(scheduling)
end

function ReviseReplica(obj, replica)
  obj.spec.parallelism = replica
  return obj
end

-- Names kept once each, in the order first seen.
local function orderedSet()
  return { list = {}, seen = {} }
end

local function remember(set, name)
  if not set.seen[name] then
    set.seen[name] = true
    set.list[#set.list + 1] = name
  end
end

-- true for a usable name: present and not empty
local function named(name)
  return name ~= nil and name ~= ''
end

-- volume[field].secretRef.name when every step is present and the name is not empty
local function secretRefName(volume, field)
  local source = volume[field]
  if source ~= nil and source.secretRef ~= nil and named(source.secretRef.name) then
    return source.secretRef.name
  end
  return nil
end

-- Dependencies declared at workflow level. The result lists ConfigMaps, then Secrets, then
-- ServiceAccounts, then PVCs, each kind in first-seen order, all in the workflow's namespace.
--   ServiceAccounts: spec.executor.serviceAccountName (even "default"), then
--                    spec.serviceAccountName unless it is "default";
--   PVCs:            spec.volumeClaimTemplates[].metadata.name, then PVC volumes;
--   ConfigMaps and Secrets: spec.volumes (configMap, projected sources, and the secret
--                    references of azureFile, cephfs, cinder, flexVolume, rbd, secret, scaleIO,
--                    iscsi, storageos, csi), then spec.imagePullSecrets.
-- Quirk kept on purpose: a secret volume counts by `secret.name`, not by the Kubernetes field
-- `secret.secretName`, so an ordinary secret volume is not reported. Templates' own pods
-- (spec.templates[]) are not inspected.
function GetDependencies(desiredObj)
  local spec = desiredObj.spec
  local configMaps, secrets = orderedSet(), orderedSet()
  local accounts, claims = orderedSet(), orderedSet()

  if spec.executor ~= nil and named(spec.executor.serviceAccountName) then
    remember(accounts, spec.executor.serviceAccountName)
  end

  if spec.volumeClaimTemplates ~= nil then
    for _, claimTemplate in pairs(spec.volumeClaimTemplates) do
      local name = claimTemplate.metadata.name
      if named(name) then
        remember(claims, name)
      end
    end
  end

  local volumes = spec.volumes
  if volumes == nil then
    volumes = {}
  end
  for _, volume in pairs(volumes) do
    if volume.configMap ~= nil and named(volume.configMap.name) then
      remember(configMaps, volume.configMap.name)
    end
    if volume.projected ~= nil and volume.projected.sources ~= nil then
      for _, source in pairs(volume.projected.sources) do
        if source.configMap ~= nil and named(source.configMap.name) then
          remember(configMaps, source.configMap.name)
        end
        if source.secret ~= nil and named(source.secret.name) then
          remember(secrets, source.secret.name)
        end
      end
    end
    if volume.azureFile ~= nil and named(volume.azureFile.secretName) then
      remember(secrets, volume.azureFile.secretName)
    end
    for _, field in ipairs({ "cephfs", "cinder", "flexVolume", "rbd" }) do
      local name = secretRefName(volume, field)
      if name ~= nil then
        remember(secrets, name)
      end
    end
    if volume.secret ~= nil and named(volume.secret.name) then
      remember(secrets, volume.secret.name)
    end
    for _, field in ipairs({ "scaleIO", "iscsi", "storageos" }) do
      local name = secretRefName(volume, field)
      if name ~= nil then
        remember(secrets, name)
      end
    end
    local csi = volume.csi
    if csi ~= nil and csi.nodePublishSecretRef ~= nil and named(csi.nodePublishSecretRef.name) then
      remember(secrets, csi.nodePublishSecretRef.name)
    end
    local claim = volume.persistentVolumeClaim
    if claim ~= nil and named(claim.claimName) then
      remember(claims, claim.claimName)
    end
  end

  if spec.imagePullSecrets ~= nil then
    for _, pullSecret in pairs(spec.imagePullSecrets) do
      if named(pullSecret.name) then
        remember(secrets, pullSecret.name)
      end
    end
  end

  if named(spec.serviceAccountName) and spec.serviceAccountName ~= 'default' then
    remember(accounts, spec.serviceAccountName)
  end

  local refs = {}
  local function emit(kind, set)
    for _, name in ipairs(set.list) do
      refs[#refs + 1] = {
        apiVersion = 'v1',
        kind = kind,
        name = name,
        namespace = desiredObj.metadata.namespace,
      }
    end
  end
  emit('ConfigMap', configMaps)
  emit('Secret', secrets)
  emit('ServiceAccount', accounts)
  emit('PersistentVolumeClaim', claims)
  return refs
end
