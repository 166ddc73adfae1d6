import {
  BrokerAccountsStatusSchema,
  DeviceListResponseSchema,
  DeviceParamsSchema,
  DeviceSecretResponseSchema,
  RegisterDeviceBodySchema,
} from '../devices';
import { NoContentSchema } from '../common';
import { endpoint } from '../endpoint';

/** The administrators' calls about controllers' broker credentials. */
const tag = 'devices';

export const list = endpoint({
  method: 'GET',
  path: '/device/',
  answer: DeviceListResponseSchema,
  errors: [],
  tag,
  summary: 'The registered controllers',
});

export const register = endpoint({
  method: 'POST',
  path: '/device/',
  body: RegisterDeviceBodySchema,
  answer: DeviceSecretResponseSchema,
  status: 201,
  errors: ['device_id_reserved', 'device_exists', 'device_account_foreign', 'broker_unreachable'],
  tag,
  summary: 'Registers a controller and answers its secret, shown this once',
});

export const accounts = endpoint({
  method: 'GET',
  path: '/device/accounts/',
  answer: BrokerAccountsStatusSchema,
  errors: [],
  tag,
  summary: "The broker's accounts compared with the registered controllers",
});

export const restoreAccounts = endpoint({
  method: 'POST',
  path: '/device/accounts/restore/',
  answer: BrokerAccountsStatusSchema,
  status: 202,
  errors: [],
  tag,
  summary: 'Gives the broker back the accounts it lost, in the background',
});

export const replaceSecret = endpoint({
  method: 'POST',
  path: '/device/:machineId/secret/',
  params: DeviceParamsSchema,
  answer: DeviceSecretResponseSchema,
  errors: ['device_not_found', 'broker_unreachable'],
  tag,
  summary: 'Gives a controller a new secret, shown this once (its old one stops working)',
});

export const remove = endpoint({
  method: 'DELETE',
  path: '/device/:machineId/',
  params: DeviceParamsSchema,
  answer: NoContentSchema,
  status: 204,
  errors: ['device_not_found', 'broker_unreachable'],
  tag,
  summary: 'Removes a controller and its broker account',
});
