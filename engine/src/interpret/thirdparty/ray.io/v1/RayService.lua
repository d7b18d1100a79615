-- KubeRay RayService (ray.io/v1): a Ray cluster (spec.rayClusterConfig) serving an application.
local kube = require("kube")

-- replicas = 1 (the head pod) + the replicas of every worker group (absent counts 0;
-- minReplicas/maxReplicas are ignored).
-- Requirements: those of the head pod template (kube.accuratePodRequirements, so its node claim
-- and all its requests), with cpu and memory raised to the largest value of any worker group
-- (compared as quantities; a worker only wins when strictly larger). Other resources (GPUs,
-- ephemeral storage) stay the head's. When the head template gives no requirements at all (no
-- requests and no node claim), the result is nil even if workers request resources.
-- Without spec.rayClusterConfig or a head template: 0 replicas, no requirements.
function GetReplicas(desiredObj)
  local spec = desiredObj.spec
  if spec == nil or spec.rayClusterConfig == nil then
    return 0, nil
  end
  local cluster = spec.rayClusterConfig
  local head = cluster.headGroupSpec
  if head == nil or head.template == nil then
    return 0, nil
  end

  local replicas = 1
  local requirements = kube.accuratePodRequirements(head.template)

  -- the largest cpu and memory so far: value for comparing, text for the result
  local largest = {
    cpu = { value = 0, text = nil },
    memory = { value = 0, text = nil },
  }
  if requirements ~= nil and requirements.resourceRequest ~= nil then
    for _, resource in ipairs({ "cpu", "memory" }) do
      local text = requirements.resourceRequest[resource]
      if text ~= nil then
        largest[resource].value = kube.getResourceQuantity(text)
        largest[resource].text = text
      end
    end
  end

  if cluster.workerGroupSpecs ~= nil then
    for _, group in ipairs(cluster.workerGroupSpecs) do
      replicas = replicas + (group.replicas or 0)
      if group.template ~= nil then
        local worker = kube.accuratePodRequirements(group.template)
        if worker ~= nil and worker.resourceRequest ~= nil then
          for _, resource in ipairs({ "cpu", "memory" }) do
            local text = worker.resourceRequest[resource]
            if text ~= nil then
              local value = kube.getResourceQuantity(text)
              if value > largest[resource].value then
                largest[resource].value = value
                largest[resource].text = text
              end
            end
          end
        end
      end
    end
  end

  if requirements ~= nil and (largest.cpu.text ~= nil or largest.memory.text ~= nil) then
    if requirements.resourceRequest == nil then
      requirements.resourceRequest = {}
    end
    for _, resource in ipairs({ "cpu", "memory" }) do
      if largest[resource].text ~= nil then
        requirements.resourceRequest[resource] = largest[resource].text
      end
    end
  end

  return replicas, requirements
end

-- The head stays at one pod; the other desiredReplica - 1 (at least 0) go to the worker groups:
--   no worker groups:   object unchanged;
--   one group:          it gets them all;
--   none left (0):      every group is set to 0;
--   groups all at 0:    shared equally, the first (n mod groups) groups one more;
--   otherwise:          each group but the last gets round(n * its share of the current total)
--                       (floor(x + 0.5)), and the last group gets what is left, which can be
--                       negative when the rounding overshoots (e.g. 4 groups of 1, 2 workers:
--                       1, 1, 1, -1). Kept as Karmada computes it.
function ReviseReplica(desiredObj, desiredReplica)
  local spec = desiredObj.spec
  if spec == nil or spec.rayClusterConfig == nil then
    return desiredObj
  end
  local cluster = spec.rayClusterConfig
  local workers = math.max(0, desiredReplica - 1)

  local groups = cluster.workerGroupSpecs
  if groups == nil or #groups == 0 then
    return desiredObj
  end
  local count = #groups

  if count == 1 then
    groups[1].replicas = workers
    return desiredObj
  end

  local current = 0
  for _, group in ipairs(groups) do
    current = current + (group.replicas or 0)
  end

  if workers == 0 then
    for _, group in ipairs(groups) do
      group.replicas = 0
    end
    return desiredObj
  end

  local given = 0
  for i, group in ipairs(groups) do
    if i == count then
      group.replicas = workers - given
    else
      local share
      if current == 0 then
        share = math.floor(workers / count)
        if i <= workers % count then
          share = share + 1
        end
      else
        -- same floating point steps as Karmada: (replicas / total), times n, plus 0.5, floored
        share = math.floor(workers * ((group.replicas or 0) / current) + 0.5)
      end
      group.replicas = share
      given = given + share
    end
  end
  return desiredObj
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

-- Dependencies of the Ray cluster's pods (spec.rayClusterConfig: head, then worker groups).
-- Found by reading the pod specs directly (not through kube.getPodDependencies), so an object
-- with none gives an empty list.
function GetDependencies(desiredObj)
  local found = newFound()
  local spec = desiredObj.spec
  if spec ~= nil and spec.rayClusterConfig ~= nil then
    scanRayCluster(spec.rayClusterConfig, found)
  end
  return references(found, desiredObj)
end
