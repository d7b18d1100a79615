-- KubeRay RayJob (ray.io/v1). Only dependencies: the cluster's shape is a componentResource
-- matter, not a replica count.

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

-- Volume types whose credentials are a secretRef ({name = ...}), checked in this order after
-- azureFile.
local SECRET_REF_VOLUMES = { "cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos" }

-- env[].valueFrom and envFrom[] references of a list of containers
local function scanContainers(containers, found)
  if containers == nil then
    return
  end
  for _, container in pairs(containers) do
    if container.envFrom ~= nil then
      for _, source in pairs(container.envFrom) do
        if source.configMapRef ~= nil and named(source.configMapRef.name) then
          remember(found.configMaps, source.configMapRef.name)
        end
        if source.secretRef ~= nil and named(source.secretRef.name) then
          remember(found.secrets, source.secretRef.name)
        end
      end
    end
    if container.env ~= nil then
      for _, variable in pairs(container.env) do
        local from = variable.valueFrom
        if from ~= nil then
          if from.configMapKeyRef ~= nil and named(from.configMapKeyRef.name) then
            remember(found.configMaps, from.configMapKeyRef.name)
          end
          if from.secretKeyRef ~= nil and named(from.secretKeyRef.name) then
            remember(found.secrets, from.secretKeyRef.name)
          end
        end
      end
    end
  end
end

-- Everything a pod spec refers to, in this order: serviceAccountName (unless "default"),
-- imagePullSecrets, volumes (configMap, secret.secretName, projected configMap/secret sources,
-- persistentVolumeClaim, then the secrets of azureFile, cephfs, cinder, flexVolume, rbd,
-- scaleIO, iscsi, storageos, csi), containers, initContainers. Ephemeral containers are not
-- looked at.
local function scanPodSpec(podSpec, found)
  if podSpec == nil then
    return
  end

  local account = podSpec.serviceAccountName
  if named(account) and account ~= 'default' then
    remember(found.accounts, account)
  end

  if podSpec.imagePullSecrets ~= nil then
    for _, pullSecret in pairs(podSpec.imagePullSecrets) do
      if named(pullSecret.name) then
        remember(found.secrets, pullSecret.name)
      end
    end
  end

  if podSpec.volumes ~= nil then
    for _, volume in pairs(podSpec.volumes) do
      if volume.configMap ~= nil and named(volume.configMap.name) then
        remember(found.configMaps, volume.configMap.name)
      end
      if volume.secret ~= nil and named(volume.secret.secretName) then
        remember(found.secrets, volume.secret.secretName)
      end
      if volume.projected ~= nil and volume.projected.sources ~= nil then
        for _, source in pairs(volume.projected.sources) do
          if source.configMap ~= nil and named(source.configMap.name) then
            remember(found.configMaps, source.configMap.name)
          end
          if source.secret ~= nil and named(source.secret.name) then
            remember(found.secrets, source.secret.name)
          end
        end
      end
      local claim = volume.persistentVolumeClaim
      if claim ~= nil and named(claim.claimName) then
        remember(found.claims, claim.claimName)
      end
      if volume.azureFile ~= nil and named(volume.azureFile.secretName) then
        remember(found.secrets, volume.azureFile.secretName)
      end
      for _, field in ipairs(SECRET_REF_VOLUMES) do
        local source = volume[field]
        if source ~= nil and source.secretRef ~= nil and named(source.secretRef.name) then
          remember(found.secrets, source.secretRef.name)
        end
      end
      local csi = volume.csi
      if csi ~= nil and csi.nodePublishSecretRef ~= nil and named(csi.nodePublishSecretRef.name) then
        remember(found.secrets, csi.nodePublishSecretRef.name)
      end
    end
  end

  scanContainers(podSpec.containers, found)
  scanContainers(podSpec.initContainers, found)
end

-- the pod spec of a {template = {spec = ...}} holder, or nil
local function templateSpec(holder)
  if holder ~= nil and holder.template ~= nil and holder.template.spec ~= nil then
    return holder.template.spec
  end
  return nil
end

-- The Ray cluster's pods: the head group, then every worker group.
local function scanRayCluster(clusterSpec, found)
  scanPodSpec(templateSpec(clusterSpec.headGroupSpec), found)
  if clusterSpec.workerGroupSpecs ~= nil then
    for _, group in pairs(clusterSpec.workerGroupSpecs) do
      scanPodSpec(templateSpec(group), found)
    end
  end
end

-- ConfigMaps, then Secrets, then ServiceAccounts, then PVCs, each kind in first-seen order, in
-- the object's namespace.
local function references(found, desiredObj)
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
  emit('ConfigMap', found.configMaps)
  emit('Secret', found.secrets)
  emit('ServiceAccount', found.accounts)
  emit('PersistentVolumeClaim', found.claims)
  return refs
end

local function newFound()
  return {
    configMaps = orderedSet(),
    secrets = orderedSet(),
    accounts = orderedSet(),
    claims = orderedSet(),
  }
end

-- Dependencies of the pods the RayJob creates: spec.rayClusterSpec (head, then worker groups),
-- then spec.submitterPodTemplate. Found by reading the pod specs directly (not through
-- kube.getPodDependencies), so an object with none gives an empty list.
function GetDependencies(desiredObj)
  local found = newFound()
  local spec = desiredObj.spec
  if spec ~= nil and spec.rayClusterSpec ~= nil then
    scanRayCluster(spec.rayClusterSpec, found)
  end
  if spec ~= nil and spec.submitterPodTemplate ~= nil then
    scanPodSpec(spec.submitterPodTemplate.spec, found)
  end
  return references(found, desiredObj)
end
