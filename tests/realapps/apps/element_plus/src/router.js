import { createRouter, createWebHistory } from 'vue-router';
import SupplierList from './views/SupplierList.vue';
import SupplierForm from './views/SupplierForm.vue';
import OrderList from './views/OrderList.vue';
import OrderForm from './views/OrderForm.vue';

export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', redirect: '/suppliers' },
    { path: '/suppliers', component: SupplierList },
    { path: '/suppliers/new', component: SupplierForm },
    { path: '/suppliers/:id/edit', component: SupplierForm, props: true },
    { path: '/orders', component: OrderList },
    { path: '/orders/new', component: OrderForm },
  ],
});
