import { createFileRoute } from '@tanstack/react-router';
import { CreateNetworkScreen } from './networks/-components/network-form-screens';

export const Route = createFileRoute('/_app/createNetwork')({
  component: CreateNetworkScreen,
});
